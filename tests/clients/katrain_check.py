"""KaTrain's own analysis code driving `hane analysis` (run by tests/kata_json.rs).

Usage: python katrain_check.py "HANE_COMMAND"

Builds KaTrain's headless base object (KaTrainBase, which KaTrain offers for use without
its GUI), a KataGoEngine whose command is hane's ("custom" backend), and a Game from a
short 9x9 record: KaTrain then queries every position itself, as it does when a game is
loaded, with its own queries (rules, komi, initialStones, moves, analyzeTurns, maxVisits,
includeOwnership, includeMovesOwnership, includePolicy, overrideSettings with
reportAnalysisWinratesAs BLACK, wideRootNoise and maxTime, priority, reportDuringSearchEvery).
Checks that every node's analysis completes and that what KaTrain derives from it (score,
winrate, candidate moves with points lost, ownership grid, policy ranking) is sane.
Prints KATRAIN OK on success; exits non-zero otherwise.
"""

import os
import sys
import time

os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")

from katrain.core.base_katrain import KaTrainBase  # noqa: E402
from katrain.core.constants import OUTPUT_ERROR  # noqa: E402
from katrain.core.engine import KataGoEngine  # noqa: E402
from katrain.core.game import Game, KaTrainSGF  # noqa: E402

RECORD = "(;GM[1]FF[4]SZ[9]KM[7]RU[Chinese];B[ee];W[cg];B[gc];W[cc];B[gg];W[dd])"
ERRORS = []


class HeadlessKaTrain(KaTrainBase):
    """KaTrain without its GUI: errors are collected, popups and redraws are no-ops."""

    def log(self, message, level=0):
        if level == OUTPUT_ERROR:
            ERRORS.append(str(message))
            print(f"ERROR: {message}", file=sys.stderr)

    def __call__(self, *args, **kwargs):  # the engine's recovery popup
        ERRORS.append(f"popup {args}")

    def update_state(self, *args, **kwargs):
        pass


def fail(message):
    print(f"FAILED: {message}")
    sys.exit(1)


def main():
    command = sys.argv[1]
    katrain = HeadlessKaTrain(force_package_config=True, debug_level=0)
    config = dict(katrain.config("engine"))
    config.update(
        {
            "backend": "custom",
            "altcommand": command,
            "max_visits": 80,
            "fast_visits": 20,
            "max_time": 30.0,
            "_enable_ownership": True,
        }
    )
    engine = KataGoEngine(katrain, config)
    try:
        game = Game(katrain, engine, move_tree=KaTrainSGF.parse_sgf(RECORD))
        nodes = list(game.root.nodes_in_tree)
        if len(nodes) != 7:
            fail(f"expected 7 nodes, got {len(nodes)}")
        deadline = time.time() + 240
        while time.time() < deadline and not all(n.analysis_complete for n in nodes):
            if ERRORS:
                fail(f"errors: {ERRORS}")
            time.sleep(0.1)
        incomplete = [i for i, n in enumerate(nodes) if not n.analysis_complete]
        if incomplete:
            fail(f"no complete analysis for nodes {incomplete}")
        for i, node in enumerate(nodes):
            check_node(i, node)
        if ERRORS:
            fail(f"errors: {ERRORS}")
    finally:
        engine.shutdown(finish=None)
    print("KATRAIN OK")


def check_node(i, node):
    where = f"node {i}"
    if not (0.0 <= node.winrate <= 1.0):
        fail(f"{where}: winrate {node.winrate}")
    if not isinstance(node.score, (int, float)) or abs(node.score) > 90:
        fail(f"{where}: score {node.score}")
    if node.root_visits < 80:
        fail(f"{where}: {node.root_visits} visits for 80 asked")
    candidates = node.candidate_moves
    if not candidates or candidates[0]["order"] != 0:
        fail(f"{where}: candidates {candidates[:2]}")
    for c in candidates:
        for key in ("move", "visits", "winrate", "scoreLead", "pv", "pointsLost"):
            if key not in c:
                fail(f"{where}: candidate without {key}: {c}")
        # KaTrain adds the move played next from the child's rootInfo (order 999): the
        # others are hane's moveInfos.
        if c["order"] < 999 and not (0 <= c.get("prior", -1) <= 1):
            fail(f"{where}: candidate without a prior: {c}")
        if c["pv"][0] != c["move"]:
            fail(f"{where}: pv {c['pv']} does not start with {c['move']}")
    if i > 0 and node.points_lost is None:
        fail(f"{where}: no points lost")
    ownership = node.ownership
    if not ownership or len(ownership) != 81 or any(abs(v) > 1 for v in ownership):
        fail(f"{where}: ownership {ownership}")
    ranking = node.policy_ranking
    if not ranking or len(ranking) != 82:
        fail(f"{where}: policy ranking {ranking and len(ranking)}")
    # Black's perspective, as KaTrain asks: after black's first move at the centre black
    # owns the centre point (row 5 from the top, column E).
    if i == 1 and ownership[4 * 9 + 4] <= 0:
        fail(f"{where}: E5 ownership {ownership[40]} is not black's")


if __name__ == "__main__":
    main()
