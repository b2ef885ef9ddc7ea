// Reads a record with Sabaki's SGF parser (@sabaki/sgf), as Sabaki opens a file: walks the
// main line (each node's first child) and counts its moves, its SBKV values (Sabaki's
// win-rate property, a number from 0 to 100), its comments and the variations branching
// off it (children after the first, each a sequence of B/W moves).
// Usage: node sabaki_sgf_check.js FILE.sgf. Prints a JSON summary; exits 1 on failure.
'use strict'

const sgf = require('@sabaki/sgf')

function check(condition, message) {
  if (!condition) throw new Error(message)
}

function main() {
  let file = process.argv[2]
  if (!file) {
    console.error('usage: node sabaki_sgf_check.js FILE.sgf')
    process.exit(2)
  }
  let roots = sgf.parseFile(file)
  check(roots.length === 1, `${roots.length} game trees`)
  let root = roots[0]
  let size = root.data.SZ ? +root.data.SZ[0] : 19
  let summary = {size, nodes: 0, moves: 0, sbkv: 0, comments: 0, variations: 0, variationMoves: 0}
  let node = root
  for (;;) {
    summary.nodes += 1
    let data = node.data
    for (let color of ['B', 'W']) {
      if (data[color] != null) summary.moves += 1
    }
    if (data.SBKV != null) {
      let value = parseFloat(data.SBKV[0])
      check(!isNaN(value) && value >= 0 && value <= 100, `SBKV[${data.SBKV[0]}]`)
      summary.sbkv += 1
    }
    if (data.C != null) summary.comments += 1
    if (node.children.length === 0) break
    for (let variation of node.children.slice(1)) {
      summary.variations += 1
      // A variation is a line of moves, one a node.
      let n = variation
      for (;;) {
        check(n.data.B != null || n.data.W != null, `a variation node without a move`)
        summary.variationMoves += 1
        if (n.children.length === 0) break
        n = n.children[0]
      }
    }
    node = node.children[0]
  }
  check(summary.variations > 0, 'no variations')
  console.log(JSON.stringify(summary))
}

try {
  main()
} catch (e) {
  console.error(String(e && e.stack || e))
  process.exit(1)
}
