(;GM[1]FF[4]CA[UTF-8]AP[hane:0.1.0]SZ[2]KM[69.1]RU[Chinese]GC[written by hane]
;W[aa]
;B[]
;W[ba])
