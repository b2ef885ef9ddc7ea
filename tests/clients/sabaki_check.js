// Drives hane the way Sabaki does, with Sabaki's own libraries: @sabaki/gtp's
// ControllerStateTracker syncs komi, board size, handicap, moves and undo; lz-analyze output
// is read through the library's response subscriber and checked line by line; the SGF from
// printsgf must parse with @sabaki/sgf and hold the synced moves.
// Usage: node sabaki_check.js /path/to/hane. Prints a JSON summary; exits 1 on failure.
'use strict'

const {Controller, ControllerStateTracker} = require('@sabaki/gtp')
const sgf = require('@sabaki/sgf')

const hane = process.argv[2]
if (!hane) {
  console.error('usage: node sabaki_check.js HANE_BINARY')
  process.exit(2)
}

const letters = 'ABCDEFGHJKLMNOPQRSTUVWXYZ'
const vertexRe = /^([A-HJ-Z])(\d{1,2})$/

function check(condition, message) {
  if (!condition) throw new Error(message)
}

function sgfToGtp(point, size) {
  let x = point.charCodeAt(0) - 97
  let y = point.charCodeAt(1) - 97
  return letters[x] + (size - y)
}

async function send(controller, name, args = []) {
  let response = await controller.sendCommand({name, args})
  check(!response.error, `${name} ${args.join(' ')} failed: ${response.content}`)
  return response.content
}

async function movesInEngine(controller) {
  // The engine's own record of the game, parsed with Sabaki's SGF library.
  let text = await send(controller, 'printsgf')
  let [root] = sgf.parse(text)
  let size = +root.data.SZ[0]
  let moves = []
  let node = root
  while (node.children.length > 0) {
    node = node.children[0]
    for (let color of ['B', 'W']) {
      if (node.data[color] != null) {
        let v = node.data[color][0]
        moves.push(`${color} ${v === '' ? 'pass' : sgfToGtp(v, size)}`)
      }
    }
  }
  return {root, moves}
}

function playHistory(moves) {
  return moves.map(m => {
    let [color, vertex] = m.split(' ')
    return {name: 'play', args: [color, vertex]}
  })
}

// Parses one analysis line the way Sabaki does: blocks starting with `info`, key/value
// pairs, `pv` taking the rest of the block.
function parseInfoLine(line) {
  let blocks = line.split(/\s*info\s+/).slice(1)
  return blocks.map(block => {
    let words = block.trim().split(/\s+/)
    let info = {}
    for (let i = 0; i < words.length; i += 2) {
      if (words[i] === 'pv') {
        info.pv = words.slice(i + 1)
        break
      }
      info[words[i]] = words[i + 1]
    }
    return info
  })
}

async function main() {
  let controller = new Controller(hane, [
    '--threads', '1', '--playouts', '200', '--seed', '3', '--log-level', 'off'
  ])
  controller.start()
  let tracker = new ControllerStateTracker(controller)
  let summary = {}

  // Startup as Sabaki does it.
  check((await send(controller, 'name')) === 'hane', 'name')
  check((await send(controller, 'protocol_version')) === '2', 'protocol_version')
  let commands = (await send(controller, 'list_commands')).split('\n')
  for (let c of ['lz-analyze', 'kata-analyze', 'lz-genmove_analyze', 'undo', 'set_free_handicap']) {
    check(commands.includes(c), `list_commands lacks ${c}`)
  }

  // 1. A handicap game synced from scratch.
  let history = [
    {name: 'set_free_handicap', args: ['C3', 'G7']},
    ...playHistory(['W E5', 'B D4', 'W F4', 'B F5', 'W pass', 'B B2'])
  ]
  await tracker.sync({komi: 0.5, boardsize: [9, 9], history})
  let game = await movesInEngine(controller)
  check(game.root.data.KM[0] === '0.5', `komi ${game.root.data.KM}`)
  check(game.root.data.SZ[0] === '9', `size ${game.root.data.SZ}`)
  check(JSON.stringify(game.root.data.AB.slice().sort()) === JSON.stringify(['cg', 'gc']),
    `handicap stones ${game.root.data.AB}`)
  check(JSON.stringify(game.moves) === JSON.stringify(['W E5', 'B D4', 'W F4', 'B F5', 'W pass', 'B B2']),
    `moves after first sync: ${game.moves}`)

  // 2. Going back two moves and on another way: the tracker uses undo.
  let undos = 0
  controller.on('command-sent', ({command}) => { if (command.name === 'undo') undos++ })
  let branch = [...history.slice(0, 5), ...playHistory(['B G3', 'W G4'])]
  await tracker.sync({komi: 0.5, boardsize: [9, 9], history: branch})
  game = await movesInEngine(controller)
  check(JSON.stringify(game.moves) === JSON.stringify(['W E5', 'B D4', 'W F4', 'B F5', 'B G3', 'W G4'])
    , `moves after the undo sync: ${game.moves}`)
  check(undos === 2, `expected 2 undos, saw ${undos}`)
  summary.undos = undos

  // 3. A new board size and komi: komi first, then boardsize, then the whole history.
  await tracker.sync({komi: 7.5, boardsize: [13, 13], history: playHistory(['B D4', 'W K10', 'B D10'])})
  game = await movesInEngine(controller)
  check(game.root.data.SZ[0] === '13' && game.root.data.KM[0] === '7.5', 'size or komi lost')
  check(JSON.stringify(game.moves) === JSON.stringify(['B D4', 'W K10', 'B D10']), `13x13 moves: ${game.moves}`)

  // 4. lz-analyze: stream for a while, stop it with the next command.
  let infoLines = []
  let analysis = controller.sendCommand({name: 'lz-analyze', args: ['W', '5']}, ({line}) => {
    if (line.startsWith('info')) infoLines.push(line)
  })
  await new Promise(resolve => setTimeout(resolve, 1000))
  let nameAfter = controller.sendCommand({name: 'name'})
  let analysisResponse = await analysis
  check(!analysisResponse.error, 'lz-analyze failed')
  check((await nameAfter).content === 'hane', 'command after the analysis stream')
  check(infoLines.length >= 3, `only ${infoLines.length} info lines in 1 s at 50 ms`)
  let lastVisits = 0
  for (let line of infoLines) {
    let infos = parseInfoLine(line)
    check(infos.length > 0, `no info block in ${line}`)
    let total = 0
    infos.forEach((info, k) => {
      check(vertexRe.test(info.move) || info.move === 'pass', `move ${info.move}`)
      let [, col, row] = info.move.match(vertexRe) || [null, 'A', '1']
      check(letters.indexOf(col) < 13 && +row >= 1 && +row <= 13, `move ${info.move} off the board`)
      let visits = +info.visits
      let winrate = +info.winrate
      check(Number.isInteger(visits) && visits > 0, `visits ${info.visits}`)
      check(Number.isInteger(winrate) && winrate >= 0 && winrate <= 10000, `winrate ${info.winrate}`)
      check(+info.order === k, `order ${info.order} at ${k}`)
      check(info.pv.length >= 1 && info.pv[0] === info.move, `pv ${info.pv}`)
      check(info.pv.every(v => vertexRe.test(v) || v === 'pass'), `pv ${info.pv}`)
      total += visits
    })
    check(total >= lastVisits, 'visits decreased between reports')
    lastVisits = total
  }
  summary.infoLines = infoLines.length
  summary.lastVisits = lastVisits

  // 5. Sabaki's genmove replacement.
  let genLines = []
  let gen = await controller.sendCommand({name: 'lz-genmove_analyze', args: ['W', '1']}, ({line}) => {
    genLines.push(line)
  })
  check(!gen.error, 'lz-genmove_analyze failed')
  let playLine = gen.content.split('\n').find(l => l.startsWith('play '))
  check(playLine != null, `no play line in ${gen.content}`)
  let played = playLine.slice(5)
  check(vertexRe.test(played) || played === 'pass' || played === 'resign', `played ${played}`)
  game = await movesInEngine(controller)
  check(game.moves.length === 4 && game.moves[3] === `W ${played}`, `genmove not recorded: ${game.moves}`)
  summary.genmove = played

  await controller.stop()
  summary.ok = true
  console.log(JSON.stringify(summary))
}

main().catch(error => {
  console.error(`FAIL: ${error.message}`)
  process.exit(1)
})
