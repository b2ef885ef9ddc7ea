# gomill ringmaster control file: a short playoff hane vs GNU Go on 9x9. hane plays
# simple ko (GNU Go knows no superko), so a repetition by GNU Go is no forfeit.
# tests/gtp_clients.rs replaces HANE_BINARY with the path of the built binary.
# Only hane's final_score counts (GNU Go is not a reliable scorer here): GNU Go at level 1
# and hane at 300 playouts sometimes judge a ragged end position differently, and gomill
# then records no result ("players disagreed"), which is not what this test is about.
# In the second matchup hane may claim wins (gomill-genmove_ex claim) and has, as black, 50
# points of komi: it is sure of winning from the start and claims the game.
competition_type = 'playoff'

players = {
    'hane': Player('HANE_BINARY --threads 1 --playouts 300 --seed 5 --rules simple-ko --log-level off',
                   is_reliable_scorer=True),
    'hane-claims': Player('HANE_BINARY --threads 1 --playouts 300 --seed 5 --rules simple-ko --log-level off',
                          is_reliable_scorer=True, allow_claim=True),
    'gnugo': Player('/usr/games/gnugo --mode gtp --level 1 --chinese-rules --capture-all-dead',
                    is_reliable_scorer=False),
}

board_size = 9
komi = 7.5
record_games = True
stderr_to_log = False

matchups = [
    Matchup('hane', 'gnugo', alternating=True, scorer='players',
            number_of_games=2, move_limit=400),
    Matchup('hane-claims', 'gnugo', id='claim', alternating=False, komi=-50, scorer='players',
            number_of_games=1, move_limit=400),
]
