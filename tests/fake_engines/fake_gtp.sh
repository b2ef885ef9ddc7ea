#!/usr/bin/env bash
# A deliberately unreliable GTP engine for the match runner's tests.
# Usage: fake_gtp.sh MODE [MOVES]
# It answers the usual setup commands, plays MOVES (default 3) ordinary moves per game on
# points it believes are empty, and then behaves according to MODE:
#   passer    passes (a well-behaved, weak engine)
#   slow      like passer, but sleeps before every reply to genmove, ordinary moves
#             included (FAKE_GTP_DELAY seconds, 0.05 s)
#   crash     writes to stderr and exits with status 3
#   hang      never answers (sleeps FAKE_GTP_HANG_SECONDS seconds, 3600, in a child process)
#   garbage   answers with text that is not GTP
#   badmove   answers "= Z99" (not a vertex)
#   refuse    answers "? cannot play"
#   illegal   plays on the point the opponent played last (occupied)
#   badplay   refuses the opponent's next `play` command
#   nosetup   refuses every board size (an engine that cannot play the match at all)
#   huge      answers with a 50 MB reply (FAKE_GTP_HUGE_BYTES bytes)
#   verbose   like passer, but writes a board diagram and a win rate line to stderr
#             before every reply to genmove
# Comments on stderr ("thinking about X") become move comments in the SGF.
# With FAKE_GTP_LOG=FILE set, every command received is appended to FILE.

mode=${1:-passer}
ordinary=${2:-3}
size=19
declare -A taken
played=0
last_opponent=""
columns=(A B C D E F G H J K L M N O P Q R S T U V W X Y Z)

reply() { # id text
  if [[ -n $1 ]]; then printf '=%s %s\n\n' "$1" "$2"; else printf '= %s\n\n' "$2"; fi
}
fail() {
  if [[ -n $1 ]]; then printf '?%s %s\n\n' "$1" "$2"; else printf '? %s\n\n' "$2"; fi
}

next_point() { # the first point, in a fixed order, not known to be taken
  local r c v
  for ((r = size / 2; r < size + size / 2; r++)); do
    for ((c = size / 2 - 1; c < size + size / 2 - 1; c++)); do
      v="${columns[c % size]}$(( r % size + 1 ))"
      if [[ -z ${taken[$v]} ]]; then echo "$v"; return; fi
    done
  done
  echo pass
}

while IFS= read -r line; do
  line=${line%$'\r'}
  [[ -z ${line// /} || $line == \#* ]] && continue
  [[ -n $FAKE_GTP_LOG ]] && printf '%s\n' "$line" >> "$FAKE_GTP_LOG"
  read -r -a words <<< "$line"
  id=""
  if [[ ${words[0]} =~ ^[0-9]+$ ]]; then id=${words[0]}; words=("${words[@]:1}"); fi
  cmd=${words[0]}
  case $cmd in
    protocol_version) reply "$id" 2 ;;
    name) reply "$id" "Fake $mode" ;;
    version) reply "$id" 1 ;;
    boardsize)
      if [[ $mode == nosetup ]]; then fail "$id" "unacceptable size"; continue; fi
      size=${words[1]}; reply "$id" "" ;;
    clear_board) taken=(); played=0; last_opponent=""; reply "$id" "" ;;
    komi|time_settings|time_left) reply "$id" "" ;;
    set_free_handicap) for v in "${words[@]:1}"; do taken[${v^^}]=1; done; reply "$id" "" ;;
    play)
      if [[ $mode == badplay && $played -ge $ordinary ]]; then fail "$id" "illegal move"; continue; fi
      v=${words[2]^^}; [[ $v != PASS ]] && taken[$v]=1 && last_opponent=$v
      reply "$id" "" ;;
    genmove)
      [[ $mode == slow ]] && sleep "${FAKE_GTP_DELAY:-0.05}"
      if [[ $mode == verbose ]]; then
        echo "Playouts: 1234, Win: 56.7%, PV: D4 Q16" >&2
        for ((r = size; r >= 1; r--)); do printf '%2d . . X O . . +\n' "$r" >&2; done
        echo "   A B C D E F G" >&2
      fi
      if (( played < ordinary )); then
        v=$(next_point); [[ $v != pass ]] && taken[$v]=1
        played=$((played + 1))
        echo "thinking about $v" >&2
        reply "$id" "$v"
        continue
      fi
      case $mode in
        passer) reply "$id" pass ;;
        slow) reply "$id" pass ;;
        crash) echo "fake engine: simulated crash" >&2; exit 3 ;;
        huge) printf '=%s ' "$id"; head -c "${FAKE_GTP_HUGE_BYTES:-50000000}" /dev/zero | tr '\0' 'A'; printf '\n\n' ;;
        verbose) reply "$id" pass ;;
        hang) sleep "${FAKE_GTP_HANG_SECONDS:-3600}" ;;
        garbage) printf 'hello, this is not GTP\n\n' ;;
        badmove) reply "$id" Z99 ;;
        refuse) fail "$id" "cannot play" ;;
        illegal) if [[ -n $last_opponent ]]; then reply "$id" "$last_opponent"; else reply "$id" "$(next_point)"; fi ;;
        badplay) reply "$id" pass ;;
      esac ;;
    final_status_list) reply "$id" "" ;;
    list_commands) reply "$id" "$(printf '%s\n' protocol_version name version boardsize clear_board komi play genmove quit)" ;;
    quit) reply "$id" ""; exit 0 ;;
    *) fail "$id" "unknown command" ;;
  esac
done
