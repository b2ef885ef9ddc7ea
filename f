(;GM[1]FF[4]CA[UTF-8]AP[hane:0.1.0]SZ[13]KM[203.7]RU[Chinese]GC[written by hane]
;W[gk]
;W[gi]
;B[hm]
;W[lm]
;B[ld]
;B[cl]
;W[ce])
