//! The one settings definition: every engine setting (its name, type, default, help text,
//! the values it accepts and, for the tunable ones, the range a tuner may explore) is
//! declared once, in the `settings!` table below. Everything else derives from it: the flags of
//! `hane gtp` and `hane bench`, the `hane:key=value` player specs of `hane match` /
//! `hane selfplay`, GTP `gomill-describe_engine`, the log line of the settings in use and
//! the tuner's parameter list. Defaults that depend on the board size or on another setting
//! are `auto` values, resolved by the methods of the parameter structs right below the definition.
//!
//! Each entry names the layer whose parameter struct holds it (`game.`, `search.` or
//! `playout.`): the table generates [`GameParams`] (the play layer's and the GTP engine's
//! settings), [`SearchParams`] (the search's) and [`PlayoutParams`] (the playout policy's,
//! inside `SearchParams`), and [`Settings`] is their aggregate. The search is given only
//! `&SearchParams` and the playout policy only `&PlayoutParams`.
//!
//! This module sits just above `board`: every layer above reads its own parameter struct.

mod value;

use std::path::PathBuf;

use crate::board::Rules;

pub use value::{
    Auto, BookSource, Bytes, DynamicKomiMode, PlayoutKind, PriorsKind, SelfAtariRule, SettingValue,
    TimePlan,
};

/// Where a setting applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// The search and the playouts: a flag of `hane gtp` and `hane bench`, and a key of
    /// `hane:` player specs.
    Search,
    /// Playing a game (time, threads, resigning): a flag of `hane gtp` and a key of `hane:`
    /// player specs; `hane bench` has its own flags for these.
    Game,
    /// The GTP engine alone (rules and komi of new games, pondering, the seed): in matches
    /// the referee and the match runner decide these.
    Engine,
}

/// The values a numeric setting accepts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Range {
    pub min: f64,
    pub max: f64,
    /// Whether `min` itself is refused.
    pub above_min: bool,
    /// Whether `max` itself is refused.
    pub below_max: bool,
}

impl Range {
    fn check(&self, x: f64) -> Result<(), String> {
        let low_ok = if self.above_min {
            x > self.min
        } else {
            x >= self.min
        };
        let high_ok = if self.below_max {
            x < self.max
        } else {
            x <= self.max
        };
        if low_ok && high_ok {
            return Ok(());
        }
        let open = if self.above_min { "(" } else { "[" };
        let close = if self.below_max { ")" } else { "]" };
        Err(format!(
            "must be in {open}{}, {}{close}",
            self.min, self.max
        ))
    }
}

/// The range a tuner explores for a numeric setting, and the size of its steps.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tune {
    pub min: f64,
    pub max: f64,
    pub step: f64,
}

/// What the definition says of a setting besides its type, default and help.
#[derive(Clone, Copy, Debug)]
pub struct Meta {
    /// The name: `--key` on the command line, `key=value` in player specs.
    pub key: &'static str,
    /// Older names still accepted in player specs.
    pub aliases: &'static [&'static str],
    /// A one-letter flag of `hane gtp`.
    pub short: Option<char>,
    pub scope: Scope,
    pub range: Option<Range>,
    pub tune: Option<Tune>,
}

impl Meta {
    const fn new(key: &'static str, scope: Scope) -> Meta {
        Meta {
            key,
            aliases: &[],
            short: None,
            scope,
            range: None,
            tune: None,
        }
    }
    const fn aliases(self, aliases: &'static [&'static str]) -> Meta {
        Meta { aliases, ..self }
    }
    const fn short(self, c: char) -> Meta {
        Meta {
            short: Some(c),
            ..self
        }
    }
    /// Accepts `min..=max`.
    const fn range(self, min: f64, max: f64) -> Meta {
        Meta {
            range: Some(Range {
                min,
                max,
                above_min: false,
                below_max: false,
            }),
            ..self
        }
    }
    /// Accepts `min < x <= max`.
    const fn above(self, min: f64, max: f64) -> Meta {
        Meta {
            range: Some(Range {
                min,
                max,
                above_min: true,
                below_max: false,
            }),
            ..self
        }
    }
    /// Accepts `min <= x < max`.
    const fn below(self, min: f64, max: f64) -> Meta {
        Meta {
            range: Some(Range {
                min,
                max,
                above_min: false,
                below_max: true,
            }),
            ..self
        }
    }
    const fn tune(self, min: f64, max: f64, step: f64) -> Meta {
        Meta {
            tune: Some(Tune { min, max, step }),
            ..self
        }
    }

    fn check(&self, number: Option<f64>) -> Result<(), String> {
        match (self.range, number) {
            (Some(range), Some(x)) => range.check(x),
            _ => Ok(()),
        }
    }
}

/// One entry of the definition, as the derived interfaces see it.
pub struct Setting {
    pub meta: Meta,
    /// The help text (the doc comment of the field; its first line is the short help).
    pub help: &'static str,
    /// What a value looks like (`N`, `SECONDS`, ...).
    pub shape: &'static str,
    /// An on/off switch (`auto` allowed or not): given alone, its flag turns it on.
    pub switch: bool,
    /// A whole number (the tuner rounds its values).
    pub integer: bool,
    default: fn() -> String,
    get: fn(&Settings) -> String,
    set: fn(&mut Settings, &str, &Meta) -> Result<(), String>,
    number: fn(&Settings) -> Option<f64>,
}

impl Setting {
    /// The default, as text.
    pub fn default_text(&self) -> String {
        (self.default)()
    }

    /// The first sentence of the help text.
    pub fn summary(&self) -> String {
        let text = self.help_text();
        match text.find(". ") {
            Some(end) => text[..=end].to_string(),
            None => text,
        }
    }

    /// The help text as one paragraph.
    pub fn help_text(&self) -> String {
        self.help
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// Whether `name` is this setting's key or one of its aliases.
    pub fn is_named(&self, name: &str) -> bool {
        self.meta.key == name || self.meta.aliases.contains(&name)
    }
}

macro_rules! settings {
    // Sorts the entries into their layer's struct (keeping each one's doc comment, type and
    // default), then emits the structs, their `Default`s and the table.
    (@sort [$($game:tt)*] [$($search:tt)*] [$($playout:tt)*]) => {
        settings!(@params GameParams [$($game)*]
            "The settings of playing games, the play layer's (clock and budget, resignation, \
             dynamic komi, the book, the pattern file) and the GTP engine's (rules and komi of \
             new games, pondering, the seed, analysis and file limits).");
        settings!(@params SearchParams [$($search)* ]
            "The search's settings: tree statistics and selection, expansion, the weights of \
             the priors and the tree's readers, early stop, tree reuse and memory. The \
             playout policy's own settings are [`SearchParams::playout`].";
            /// The playout policy's settings.
            playout: PlayoutParams);
        settings!(@params PlayoutParams [$($playout)*]
            "The playout policy's settings: which policy, and the pattern policy's \
             heuristics and their weights.");
    };
    (@sort [$($game:tt)*] [$($search:tt)*] [$($playout:tt)*]
        $(#[doc = $doc:literal])+ game . $field:ident : $ty:ty = $default:expr, $meta:expr; $($rest:tt)*) => {
        settings!(@sort [$($game)* $(#[doc = $doc])+ $field : $ty = $default;] [$($search)*] [$($playout)*] $($rest)*);
    };
    (@sort [$($game:tt)*] [$($search:tt)*] [$($playout:tt)*]
        $(#[doc = $doc:literal])+ search . $field:ident : $ty:ty = $default:expr, $meta:expr; $($rest:tt)*) => {
        settings!(@sort [$($game)*] [$($search)* $(#[doc = $doc])+ $field : $ty = $default;] [$($playout)*] $($rest)*);
    };
    (@sort [$($game:tt)*] [$($search:tt)*] [$($playout:tt)*]
        $(#[doc = $doc:literal])+ playout . $field:ident : $ty:ty = $default:expr, $meta:expr; $($rest:tt)*) => {
        settings!(@sort [$($game)*] [$($search)*] [$($playout)* $(#[doc = $doc])+ $field : $ty = $default;] $($rest)*);
    };
    (@params $name:ident [$($(#[doc = $doc:literal])+ $field:ident : $ty:ty = $default:expr;)*] $about:literal
        $(; $(#[doc = $xdoc:literal])+ $xfield:ident : $xty:ty)?) => {
        #[doc = $about]
        #[derive(Clone, Debug, PartialEq)]
        pub struct $name {
            $( $(#[doc = $doc])+ pub $field: $ty, )*
            $( $(#[doc = $xdoc])+ pub $xfield: $xty, )?
        }

        impl Default for $name {
            fn default() -> $name {
                $name { $( $field: $default, )* $( $xfield: <$xty>::default(), )? }
            }
        }
    };
    // The struct of a layer, as a place in `Settings`.
    (@in $s:ident, game) => { $s.game };
    (@in $s:ident, search) => { $s.search };
    (@in $s:ident, playout) => { $s.search.playout };
    ($(
        $(#[doc = $doc:literal])+
        $group:ident . $field:ident : $ty:ty = $default:expr, $meta:expr;
    )+) => {
        settings!(@sort [] [] [] $( $(#[doc = $doc])+ $group . $field : $ty = $default, $meta; )+);

        /// Every setting, in the order of the definition.
        pub static SETTINGS: &[Setting] = &[$(
            Setting {
                meta: $meta,
                help: concat!($($doc, "\n"),+),
                shape: <$ty as SettingValue>::SHAPE,
                switch: <$ty as SettingValue>::SWITCH,
                integer: <$ty as SettingValue>::INTEGER,
                default: || {
                    let value: $ty = $default;
                    value.format_setting()
                },
                get: |s| settings!(@in s, $group).$field.format_setting(),
                set: |s, text, meta| {
                    let value = <$ty as SettingValue>::parse_setting(text)?;
                    meta.check(value.as_number())?;
                    settings!(@in s, $group).$field = value;
                    Ok(())
                },
                number: |s| settings!(@in s, $group).$field.as_number(),
            },
        )+];
    };
}

settings! {
    /// Search threads (auto: one per core).
    game.threads: Auto<usize> = Auto::Auto, Meta::new("threads", Scope::Game).short('t').range(1.0, 1024.0);
    /// Playouts per move: a fixed amount of thinking, reproducible with a seed and one
    /// thread; none: limited by time only. A game clock still applies. With neither
    /// playouts nor time nor a clock, hane thinks 5 seconds per move.
    game.playouts: Option<u64> = None, Meta::new("playouts", Scope::Game).short('p').range(1.0, 1e15);
    /// Longest thinking time per move in seconds (none: the clock decides); a game clock
    /// can make it shorter.
    game.time: Option<f64> = None, Meta::new("time", Scope::Game).aliases(&["seconds"]).above(0.0, 86_400.0);
    /// Longest thinking time of any move, whatever the clock, the time left a controller
    /// reports or the playouts setting say.
    game.max_move_time: f64 = 600.0, Meta::new("max-move-time", Scope::Game).above(0.0, 86_400.0);
    /// Upper bound on the search tree's memory (512M, 2G, ...).
    search.max_memory: Bytes = Bytes(1 << 30), Meta::new("max-memory", Scope::Search);
    /// Resign when the win rate stays below this fraction for resign-moves moves in a
    /// row; 0 never resigns.
    game.resign_threshold: f32 = 0.1, Meta::new("resign-threshold", Scope::Game).aliases(&["resign"]).below(0.0, 1.0).tune(0.0, 0.3, 0.02);
    /// Moves in a row under the resign threshold before resigning.
    game.resign_moves: u32 = 3, Meta::new("resign-moves", Scope::Game).range(1.0, 1000.0);
    /// Dynamic komi of handicap games: the playouts are scored with an offset on the komi
    /// so that the search, far ahead or far behind, still sees moves that matter. linear:
    /// dynamic-komi-stone points per handicap stone, fading to nothing by move
    /// dynamic-komi-moves; adaptive: starts there and after each move shifts the offset by
    /// a point or more to keep the win rate of the side to move in 45-65%, within an eighth
    /// of the board's points, and in hane's favour within that bound times the linear
    /// fade; off; auto: in handicap games (2 or more handicap stones, or setup stones all
    /// of one colour) linear from 19x19 up and adaptive below, off in even games (setup stones of both colours: a
    /// position). hane reports win rates and scores under the real komi, and resigns only
    /// when lost under both.
    game.dynamic_komi: DynamicKomiMode = DynamicKomiMode::Auto, Meta::new("dynamic-komi", Scope::Game);
    /// Points of dynamic komi per handicap stone on 19x19 (scaled by the board's area on
    /// other sizes).
    game.dynamic_komi_stone: f32 = 7.0, Meta::new("dynamic-komi-stone", Scope::Game).range(0.0, 100.0);
    /// The move number on 19x19 (scaled by the board's area on other sizes) by which the
    /// linear dynamic komi has faded to nothing.
    game.dynamic_komi_moves: u32 = 200, Meta::new("dynamic-komi-moves", Scope::Game).range(1.0, 10_000.0);
    /// Linear dynamic komi only: the share of hane's lead (the last search's mean score
    /// under the real komi, when ahead) added to the offset in hane's hard direction in
    /// handicap games, so that a search far ahead keeps playing for a margin; 0: the
    /// linear offset alone.
    game.dynamic_komi_lead: f32 = 0.5, Meta::new("dynamic-komi-lead", Scope::Game).range(0.0, 1.0);
    /// Light playouts that judge dead stones and the final score.
    game.judge_playouts: u64 = 1000, Meta::new("judge-playouts", Scope::Game).aliases(&["dead-playouts"]).range(1.0, 1e9);
    /// How a game clock's main time is spread over the moves: flat (the same share for
    /// every expected move) or phased (from 13x13 up, half the flat share in the opening,
    /// a third more in the middle game).
    game.time_plan: TimePlan = TimePlan::Flat, Meta::new("time-plan", Scope::Game);
    /// Under a game clock, a search whose best move's win rate is this much below the
    /// player's own at its last move runs on into the clock's extension, as for close
    /// candidates (0: off).
    game.time_drop: f64 = 0.0, Meta::new("time-drop", Scope::Game).range(0.0, 1.0);
    /// Seconds kept back from every move's time budget under a game clock, for network
    /// lag.
    game.lag_margin: f64 = 0.5, Meta::new("lag-margin", Scope::Engine).range(0.0, 3600.0);
    /// Playout policy: pattern (answers the last move's tactics, reads ladders and plays
    /// learned 3x3 shapes) or light (uniformly random without filling eyes; about 4x as
    /// many playouts on 9x9 and 3.5x on 19x19, much weaker).
    playout.playout: PlayoutKind = PlayoutKind::Pattern, Meta::new("playout", Scope::Search);
    /// Priors of new tree moves: pattern (the learned move probabilities on top of the
    /// heuristic) or heuristic (captures, ataris, distance to the last move).
    search.priors: PriorsKind = PriorsKind::Pattern, Meta::new("priors", Scope::Search);
    /// Virtual playouts of the priors' shape term: the learned term of the pattern priors
    /// (auto: 18.26), or with the heuristic priors their
    /// hand-written 3x3 shapes and ladder reading (auto or 0: neither).
    search.prior_weight: Auto<f32> = Auto::Auto, Meta::new("prior-weight", Scope::Search).range(0.0, 1e6).tune(0.0, 100.0, 5.0);
    /// Virtual lost playouts of a lonely move (no stone within 3 points) off the third
    /// and fourth lines, on boards from 13x13 up, while at most a twelfth of the board holds
    /// stones, fading to none at a sixth (0: off).
    search.opening_prior: f32 = 300.0, Meta::new("opening-prior", Scope::Search).range(0.0, 1e6).tune(0.0, 2000.0, 100.0);
    /// The share of `opening-prior` a move within 3 points of a stone gets off the third
    /// and fourth lines.
    search.opening_prior_near: f32 = 0.03, Meta::new("opening-prior-near", Scope::Search).range(0.0, 1.0).tune(0.0, 1.0, 0.05);
    /// Pattern table file (the `patterns/` text format) for every board size instead of
    /// the compiled-in ones (builtin), for pattern playouts and pattern priors.
    game.patterns: Option<PathBuf> = None, Meta::new("patterns", Scope::Search);
    /// Pattern playouts answer two-liberty fights next to the last move and play the
    /// vital point of small eye spaces (off: about a fifth more playouts, weaker).
    playout.tactics: bool = true, Meta::new("tactics", Scope::Search);
    /// Pattern playouts read ladders: they do not save a chain in atari by running into a
    /// ladder, and continue a ladder the opponent runs into.
    playout.ladders: bool = true, Meta::new("ladders", Scope::Search);
    /// Pattern playouts play the last good replies each search thread learns from its
    /// playouts (LGRF-2).
    playout.replies: bool = false, Meta::new("replies", Scope::Search);
    /// Pattern playouts capture chains left in atari away from the last move, before a
    /// random move.
    playout.captures: bool = false, Meta::new("captures", Scope::Search);
    /// Which self-ataris (moves that leave their own chain with one liberty, capturing
    /// nothing) the pattern playouts' random move may play: small (those of chains of one
    /// or two stones), useful (only a snapback, a nakade in an enemy eye space of 3 to
    /// 6 points, or a throw-in against an enemy chain of two liberties), never. A self-atari
    /// refused under useful or never is replaced by the liberty it would leave when playing
    /// there is safe.
    playout.self_atari: SelfAtariRule = SelfAtariRule::Small, Meta::new("self-atari", Scope::Search);
    /// With `self-atari=small`, the pattern playouts' random move may also leave a chain of
    /// 3 to 6 stones in atari when it touches a single enemy chain whose only liberties are
    /// the move and the chain's last one, and has the shape of a dead eye space (a straight
    /// or bent three, a square or pyramid four, a bulky or crossed five, a rabbity six): the
    /// throw-in that kills a group which only looks like a seki.
    playout.nakade_sacrifice: bool = false, Meta::new("nakade-sacrifice", Scope::Search);
    /// Pattern playouts atari the chain the last move left with two liberties when its
    /// escape from the atari would have at most two liberties and capture nothing (off:
    /// only ladders next to our previous move are started).
    playout.two_liberty_ataris: bool = false, Meta::new("two-liberty-ataris", Scope::Search);
    /// Pattern playouts atari an enemy chain of two liberties that touches an own chain the
    /// last move left with three or four, when the enemy's escape from the atari would have
    /// at most two liberties: capturing races the own chain leads are won (auto: on up to
    /// 9x9, off on larger boards).
    playout.race_ataris: Auto<bool> = Auto::Auto, Meta::new("race-ataris", Scope::Search);
    /// Probability that the pattern playouts retake a ko the player could not retake on its
    /// previous turn (the opponent had just taken it), when the retake still captures: ko
    /// fights in the playouts (0: a ko stays with the side that took it first unless a
    /// tactical or random move retakes it).
    playout.ko_retakes: f32 = 0.0, Meta::new("ko-retakes", Scope::Search).range(0.0, 1.0).tune(0.0, 1.0, 0.1);
    /// Random points the pattern playouts try for one in an empty 3x3 area before their
    /// random move ("fill the board"); 0: none.
    playout.fill_board: u32 = 0, Meta::new("fill-board", Scope::Search).range(0.0, 64.0).tune(0.0, 16.0, 1.0);
    /// Weight of "no shape move" in the pattern playouts: with W the sum of the
    /// (tempered) 3x3 gammas of the empty points next to the last move, a shape there is
    /// played with probability W / (W + shape-reluctance), else the random move.
    playout.shape_reluctance: f32 = 4.0, Meta::new("shape-reluctance", Scope::Search).range(0.0, 1e6).tune(0.0, 16.0, 1.0);
    /// Temperature of the pattern playouts' shapes: a shape is drawn with its gamma
    /// raised to 1 / shape-temperature (below 1 the best shapes are favoured more, above 1
    /// the draw flattens).
    playout.shape_temperature: f32 = 1.0, Meta::new("shape-temperature", Scope::Search).above(0.0, 100.0).tune(0.2, 2.0, 0.1);
    /// UCT exploration constant (auto: 0.02 with light playouts, 0.0057 with pattern
    /// playouts).
    search.exploration: Auto<f32> = Auto::Auto, Meta::new("exploration", Scope::Search).range(0.0, 100.0).tune(0.0, 1.0, 0.05);
    /// RAVE equivalence: the real visits at which AMAF and real statistics weigh the
    /// same (0: no AMAF).
    search.rave: f32 = 1556.0, Meta::new("rave", Scope::Search).aliases(&["rave-equivalence"]).range(0.0, 1e9).tune(100.0, 20_000.0, 500.0);
    /// Share of a prior's virtual playouts also counted as AMAF playouts.
    search.rave_prior: f32 = 0.032, Meta::new("rave-prior", Scope::Search).range(0.0, 1e6).tune(0.0, 10.0, 0.5);
    /// Distance weighting of AMAF results: a playout move at step t of a playout of T steps
    /// counts 1 - k (t - t0) / (T - t0) of a result in the AMAF statistics of a node at
    /// step t0, so that moves played soon after the node count more (0: all count the same).
    search.rave_distance: f32 = 0.0, Meta::new("rave-distance", Scope::Search).range(0.0, 1.0).tune(0.0, 0.9, 0.1);
    /// Weight of criticality in the selection: a move whose point ends owned by the winner
    /// of the playouts through its node more often than chance would have it (its
    /// criticality), and more than the node's moves on average, gets that excess, times this
    /// setting, of its AMAF playouts as extra AMAF wins, once the node has sampled 32
    /// playouts (0: off).
    search.criticality: f32 = 0.0, Meta::new("criticality", Scope::Search).range(0.0, 1e6).tune(0.0, 4.0, 0.25);
    /// Lost playouts a tree move counts for each search thread whose descent is passing
    /// through it (virtual loss), so that threads spread over the tree.
    search.virtual_loss: f32 = 1.0, Meta::new("virtual-loss", Scope::Search).range(0.0, 1e6).tune(0.0, 8.0, 0.5);
    /// Value of a tree move with no statistics and no prior (first-play urgency).
    search.fpu: f32 = 0.873, Meta::new("fpu", Scope::Search).aliases(&["first-play-urgency"]).range(0.0, 1e6).tune(0.5, 1.5, 0.05);
    /// Visits a tree node needs before it gets children (auto: 2 up to 7x7, 8 above).
    search.expand: Auto<u32> = Auto::Auto, Meta::new("expand", Scope::Search).range(1.0, 1e9).tune(1.0, 32.0, 1.0);
    /// Virtual playouts the tactical reader gives new tree moves: in the chains touching
    /// the last two moves and the big chains short of liberties, a move that saves one of
    /// ours or captures one of theirs counts them as wins, an escape of a chain that cannot
    /// be saved as losses (0: no reading in the tree).
    search.reading: f32 = 20.0, Meta::new("reading", Scope::Search).range(0.0, 1e6).tune(0.0, 60.0, 5.0);
    /// Node budget of each tactical read at tree expansion.
    search.reading_nodes: u64 = 100, Meta::new("reading-nodes", Scope::Search).range(1.0, 1e7);
    /// Chains of at least this many stones with at most two liberties are read by the
    /// tree's tactical reader wherever they are, not only next to the last two moves (0:
    /// only there, and the chains of 5 stones or more with at most 3 liberties).
    search.reading_anywhere: u32 = 0, Meta::new("reading-anywhere", Scope::Search).range(0.0, 361.0).tune(0.0, 5.0, 1.0);
    /// Growth of the tactical reader's bonus with the chain's size: a move deciding a chain
    /// of s stones gets reading times 1 + reading-size * (s - 1) virtual playouts, at most
    /// 4 times reading (0: the same for every chain).
    search.reading_size: f32 = 0.0, Meta::new("reading-size", Scope::Search).range(0.0, 100.0).tune(0.0, 1.0, 0.1);
    /// Virtual playouts won that the race reader gives a new tree move that wins a
    /// capturing race next to the last two moves (chains of 2+ stones with 2 to 4
    /// liberties) that the opponent would win by moving first, or that saves our chain
    /// in it (a seki); a ko counts half (0: no race reads in the tree).
    search.race: f32 = 0.0, Meta::new("race", Scope::Search).range(0.0, 1e6).tune(0.0, 60.0, 5.0);
    /// Node budget of each race question at tree expansion.
    search.race_nodes: u64 = 100, Meta::new("race-nodes", Scope::Search).range(1.0, 1e7);
    /// Virtual playouts won that the owl reader gives a root move saving a group of ours
    /// that the opponent could kill, or killing one of theirs that could still live and
    /// touches no group of ours the opponent could kill (0: no owl reading).
    search.owl: f32 = 0.0, Meta::new("owl", Scope::Search).range(0.0, 1e6).tune(0.0, 400.0, 20.0);
    /// Node budget of each owl read at the root.
    search.owl_nodes: u64 = 20000, Meta::new("owl-nodes", Scope::Search).range(1.0, 1e7);
    /// Whether the `owl` bonus also goes to moves saving a group of ours (off: only to
    /// moves killing a group of theirs).
    search.owl_saves: bool = true, Meta::new("owl-saves", Scope::Search);
    /// Smallest group (in stones) the root owl reads: smaller groups get no owl priors,
    /// no playout verdicts and no feeding penalty.
    search.owl_min_stones: u32 = 4, Meta::new("owl-min-stones", Scope::Search).range(1.0, 361.0).tune(4.0, 20.0, 2.0);
    /// Share of the playouts whose final score follows the root owl's verdicts (0: none): a
    /// group the owl reads as dead (or alive) counts as dead (alive) at the end of such a
    /// playout unless a tree move of the playout fell in the area the read depended on; a group
    /// that lives or dies by who moves first goes to the side to move after the tree's moves,
    /// or to the side whose first move in the area was the reads' killing or saving move. Reads
    /// the groups as `owl` does, even with `owl` at 0.
    search.owl_score: f32 = 0.0, Meta::new("owl-score", Scope::Search).range(0.0, 1.0).tune(0.0, 1.0, 0.1);
    /// Virtual playouts lost that the root owl gives a move feeding a group of ours it reads
    /// as dead (no defence works, read out): a liberty of the group, or an empty point next
    /// to one within 2 points of its stones; a capture is exempt (0: none). Reads our
    /// groups as `owl` reads both sides' (only ours unless `owl` or `owl-score` is on).
    search.owl_dead: f32 = 0.0, Meta::new("owl-dead", Scope::Search).range(0.0, 1e6).tune(0.0, 400.0, 20.0);
    /// Virtual playouts lost that a move feeding a group of its side the root owl read as
    /// dead gets at the tree's nodes below the root, while the points the verdict depended
    /// on are as at the root (0: the root only; needs `owl-dead`).
    search.owl_dead_tree: f32 = 0.0, Meta::new("owl-dead-tree", Scope::Search).range(0.0, 1e6).tune(0.0, 400.0, 20.0);
    /// Stop a move's search early when the runner-up cannot overtake the best move in
    /// the playouts or time left.
    search.early_stop: bool = true, Meta::new("early-stop", Scope::Search);
    /// Keep the subtree of the moves played between searches.
    search.reuse: bool = true, Meta::new("reuse", Scope::Search).aliases(&["reuse-tree"]);
    /// Opening book: builtin (the 9x9 book grown by hane's searches, played at once for
    /// komi 7 and 7.5, and the 19x19 book of professional statistics, a prior of the
    /// search), off, or a book file (the `patterns/` book format).
    game.book: BookSource = BookSource::Builtin, Meta::new("book", Scope::Game);
    /// Seed of the random generators; with one thread and a playout limit the moves
    /// repeat. none: a fresh seed every run (logged at --log-level info).
    game.seed: Option<u64> = None, Meta::new("seed", Scope::Engine);
    /// Keep thinking on the opponent's time, until the next command arrives.
    game.ponder: bool = false, Meta::new("ponder", Scope::Engine);
    /// Rules of new games: cgos (area scoring, positional superko, no handicap
    /// compensation), chinese, japanese (played as chinese), tromp-taylor, aga,
    /// new-zealand, simple-ko (cgos with only the simple ko rule, as GNU Go plays).
    game.rules: Rules = Rules::default(), Meta::new("rules", Scope::Engine);
    /// Komi of new games (GTP komi overrides it).
    game.komi: f32 = 7.5, Meta::new("komi", Scope::Engine).range(-1000.0, 1000.0);
    /// Stop lz-analyze / kata-analyze streams after this many playouts (none: a stream
    /// runs until the next input line).
    game.analysis_playouts: Option<u64> = None, Meta::new("analysis-playouts", Scope::Engine).range(1.0, 1e15);
    /// Most bytes GTP loadsgf reads of a file: a record whose first game does not end
    /// within them is refused. loadsgf reads regular files only, and only their first game.
    game.max_sgf_bytes: Bytes = Bytes(4 << 20), Meta::new("max-sgf-bytes", Scope::Engine);
    /// Largest pattern table (patterns) or book (book) file read; those must be regular
    /// files.
    game.max_data_bytes: Bytes = Bytes(crate::files::DEFAULT_MAX_DATA_BYTES), Meta::new("max-data-bytes", Scope::Game);
    /// Longest GTP input line: a longer one is skipped unread and answered `? line too
    /// long`. The commands read ahead of the one running are bounded too (four such lines'
    /// worth, or 1,024 lines): while they are full hane stops reading its input, so a client
    /// that does not read the replies cannot make it grow.
    game.max_line_bytes: Bytes = Bytes(2 << 20), Meta::new("max-line-bytes", Scope::Engine);
}

/// The engine's settings: each layer's parameter struct, [`GameParams`] for playing games
/// and [`SearchParams`] for the search (with the playouts' [`PlayoutParams`] inside it).
/// `Settings::default()` is hane's default engine. The play layer owns it; the search is
/// given its `search` part only, and the playout policy its `search.playout` part.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Settings {
    pub game: GameParams,
    pub search: SearchParams,
}

/// The constants of the tree's move selection ([`SearchParams::selection`]): the settings of
/// those names, the exploration's `auto` resolved.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Selection {
    pub exploration: f32,
    pub rave: f32,
    pub rave_prior: f32,
    pub fpu: f32,
    pub rave_distance: f32,
    pub criticality: f32,
    pub virtual_loss: f32,
}

impl GameParams {
    /// Search threads.
    pub fn thread_count(&self) -> usize {
        self.threads.or_else_with(crate::cores)
    }

    /// The rules of new games, with the komi setting.
    pub fn game_rules(&self) -> Rules {
        Rules {
            komi: self.komi,
            ..self.rules
        }
    }
}

/// The resolution of the search's `auto` values.
impl SearchParams {
    /// The UCT exploration constant.
    pub fn exploration_constant(&self) -> f32 {
        self.exploration.or(match self.playout.playout {
            PlayoutKind::Light => 0.02,
            PlayoutKind::Pattern => 0.0057,
        })
    }

    /// The tree's selection constants, the exploration's `auto` resolved. The same on every board
    /// size: `hane tune` set them on 9x9, and they won on 13x13 and 19x19 too (a size that
    /// needs its own values would resolve them here from a size argument, as
    /// [`SearchParams::expand_visits`] does).
    pub fn selection(&self) -> Selection {
        Selection {
            exploration: self.exploration_constant(),
            rave: self.rave,
            rave_prior: self.rave_prior,
            fpu: self.fpu,
            rave_distance: self.rave_distance,
            criticality: self.criticality,
            virtual_loss: self.virtual_loss,
        }
    }

    /// Visits before a tree node is expanded on a board of `size`.
    pub fn expand_visits(&self, size: usize) -> u32 {
        self.expand.or(if size <= 7 { 2 } else { 8 }).max(1)
    }

    /// Virtual playouts of the pattern priors' learned term.
    pub fn pattern_prior_weight(&self) -> f32 {
        self.prior_weight.or(18.26)
    }

    /// Virtual playouts of the heuristic priors' hand-written shapes (which also turn on
    /// their ladder reading); `None`: neither.
    pub fn heuristic_shape_weight(&self) -> Option<f32> {
        match self.prior_weight {
            Auto::Value(w) if w > 0.0 => Some(w),
            _ => None,
        }
    }
}

/// The resolution of the playouts' `auto` values.
impl PlayoutParams {
    /// Whether the pattern playouts play race ataris on a board of `size`: `auto` turns
    /// them on up to 9x9, where they won at equal time; on 19x19 they cost more than a
    /// quarter of the playouts and equal-time games have not shown a gain.
    pub fn race_ataris_on(&self, size: usize) -> bool {
        self.race_ataris.or(size <= 9)
    }
}

impl Settings {
    /// The value of `setting` as a number, with an `auto` value resolved as the engine
    /// resolves it on a board of `size` (the tuner's starting point); `None` for a setting
    /// that is not a number. Every tunable `auto` setting must be resolved here (a test
    /// checks it).
    pub fn effective_number(&self, setting: &Setting, size: usize) -> Option<f64> {
        let search = &self.search;
        match setting.meta.key {
            "exploration" => Some(f64::from(search.exploration_constant())),
            "expand" => Some(f64::from(search.expand_visits(size))),
            "prior-weight" => Some(f64::from(match search.priors {
                PriorsKind::Pattern => search.pattern_prior_weight(),
                PriorsKind::Heuristic => search.heuristic_shape_weight().unwrap_or(0.0),
            })),
            _ => self.number(setting),
        }
    }
}

impl<T: Copy> Auto<T> {
    fn or_else_with(self, auto: impl FnOnce() -> T) -> T {
        match self {
            Auto::Auto => auto(),
            Auto::Value(v) => v,
        }
    }
}

/// Reading and writing settings by name.
impl Settings {
    /// The setting called `name` (its key or an alias).
    pub fn find(name: &str) -> Option<&'static Setting> {
        let name = name.trim();
        SETTINGS.iter().find(|s| s.is_named(name))
    }

    /// Sets the setting called `name` from text; on an error nothing changes.
    pub fn set(&mut self, name: &str, text: &str) -> Result<(), String> {
        let setting = Settings::find(name).ok_or_else(|| {
            format!(
                "unknown setting {name:?} (known: {})",
                SETTINGS
                    .iter()
                    .map(|s| s.meta.key)
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        })?;
        (setting.set)(self, text, &setting.meta)
            .map_err(|e| format!("{}={text:?}: {e}", setting.meta.key))
    }

    /// The value of the setting called `name`, as text.
    pub fn get(&self, name: &str) -> Option<String> {
        Settings::find(name).map(|s| (s.get)(self))
    }

    /// The value of `setting` as a number, where it is one.
    pub fn number(&self, setting: &Setting) -> Option<f64> {
        (setting.number)(self)
    }

    /// Applies `key=value` pairs separated by commas (a `hane:` player spec); only the
    /// settings in `scopes` are accepted. On an error nothing changes.
    pub fn apply_pairs(&mut self, text: &str, scopes: &[Scope]) -> Result<(), String> {
        let mut changed = self.clone();
        for pair in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (key, value) = pair
                .split_once('=')
                .ok_or_else(|| format!("setting {pair:?} is not key=value"))?;
            let key = key.trim();
            if let Some(setting) = Settings::find(key)
                && !scopes.contains(&setting.meta.scope)
            {
                return Err(format!("setting {key:?} cannot be set here"));
            }
            changed.set(key, value)?;
        }
        *self = changed;
        Ok(())
    }

    /// `key=value` for every setting in `scopes` that differs from the default, in the
    /// order of the definition.
    pub fn changed(&self, scopes: &[Scope]) -> Vec<String> {
        let defaults = Settings::default();
        SETTINGS
            .iter()
            .filter(|s| scopes.contains(&s.meta.scope))
            .filter(|s| (s.get)(self) != (s.get)(&defaults))
            .map(|s| format!("{}={}", s.meta.key, (s.get)(self)))
            .collect()
    }

    /// The settings in use for a log line: `given: ` the settings that differ from the
    /// default, then `defaults: ` the others, each `key=value` in the order of the
    /// definition.
    pub fn log_line(&self) -> String {
        let defaults = Settings::default();
        let (mut given, mut default) = (Vec::new(), Vec::new());
        for setting in SETTINGS {
            let value = (setting.get)(self);
            let pair = format!("{}={value}", setting.meta.key);
            if value == (setting.get)(&defaults) {
                default.push(pair);
            } else {
                given.push(pair);
            }
        }
        let list = |pairs: Vec<String>| {
            if pairs.is_empty() {
                "none".to_string()
            } else {
                pairs.join(", ")
            }
        };
        format!("given: {}; defaults: {}", list(given), list(default))
    }

    /// `key=value` for every setting, in the order of the definition (GTP
    /// `gomill-describe_engine`).
    pub fn describe(&self) -> String {
        SETTINGS
            .iter()
            .map(|s| format!("{}={}", s.meta.key, (s.get)(self)))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_default_reads_back_and_passes_its_own_checks() {
        let defaults = Settings::default();
        for setting in SETTINGS {
            let mut s = Settings::default();
            s.set(setting.meta.key, &setting.default_text())
                .unwrap_or_else(|e| panic!("{}: {e}", setting.meta.key));
            assert_eq!(s, defaults, "{}", setting.meta.key);
            assert!(!setting.summary().is_empty(), "{}", setting.meta.key);
        }
    }

    #[test]
    fn names_are_unique() {
        let mut names: Vec<&str> = SETTINGS
            .iter()
            .flat_map(|s| std::iter::once(s.meta.key).chain(s.meta.aliases.iter().copied()))
            .collect();
        let count = names.len();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), count);
    }

    #[test]
    fn tuner_ranges_lie_within_the_accepted_values() {
        for setting in SETTINGS {
            let Some(tune) = setting.meta.tune else {
                continue;
            };
            assert!(
                tune.min < tune.max && tune.step > 0.0,
                "{}",
                setting.meta.key
            );
            if let Some(range) = setting.meta.range {
                assert!(range.check(tune.min).is_ok(), "{}", setting.meta.key);
                assert!(range.check(tune.max).is_ok(), "{}", setting.meta.key);
            }
            let mut s = Settings::default();
            s.set(setting.meta.key, &tune.max.to_string()).unwrap();
            let read = s.number(setting).unwrap();
            assert!(
                (read - tune.max).abs() < 1e-6 * tune.max,
                "{}",
                setting.meta.key
            );
        }
    }

    #[test]
    fn set_checks_values_and_changes_nothing_on_an_error() {
        let mut s = Settings::default();
        s.set("fill-board", "5").unwrap();
        assert_eq!(s.search.playout.fill_board, 5);
        for (key, bad) in [
            ("fill-board", "65"),
            ("fill-board", "-1"),
            ("resign-threshold", "1"),
            ("resign-threshold", "-0.1"),
            ("time", "0"),
            ("time", "100000"),
            ("threads", "0"),
            ("playouts", "0"),
            ("expand", "0"),
            ("exploration", "-1"),
            ("fpu", "inf"),
            ("tactics", "sometimes"),
            ("colour", "blue"),
        ] {
            let before = s.clone();
            assert!(s.set(key, bad).is_err(), "{key}={bad}");
            assert_eq!(s, before);
        }
        s.set("resign", "0.2").unwrap();
        assert_eq!(s.game.resign_threshold, 0.2);
        assert_eq!(s.get("dead-playouts").as_deref(), Some("1000"));
    }

    #[test]
    fn pairs_respect_scopes() {
        let mut s = Settings::default();
        s.apply_pairs(
            "playouts=400, threads=1,rave=1500",
            &[Scope::Search, Scope::Game],
        )
        .unwrap();
        assert_eq!(
            (s.game.playouts, s.game.threads, s.search.rave),
            (Some(400), Auto::Value(1), 1500.0)
        );
        assert_eq!(
            s.changed(&[Scope::Search, Scope::Game]),
            ["threads=1", "playouts=400", "rave=1500"]
        );
        let before = s.clone();
        assert!(s.apply_pairs("rave=10,komi=6.5", &[Scope::Search]).is_err());
        assert!(s.apply_pairs("rave=10,threads", &[Scope::Search]).is_err());
        assert_eq!(s, before);
    }

    #[test]
    fn the_log_line_puts_the_given_settings_first() {
        let mut s = Settings::default();
        assert!(
            s.log_line()
                .starts_with("given: none; defaults: threads=auto, ")
        );
        s.apply_pairs("rave=1500,threads=2", &[Scope::Search, Scope::Game])
            .unwrap();
        let line = s.log_line();
        assert!(
            line.starts_with("given: threads=2, rave=1500; defaults: playouts=none, "),
            "{line}"
        );
        assert_eq!(line.matches('=').count(), SETTINGS.len());
    }

    #[test]
    fn every_tunable_setting_has_a_number_at_its_default() {
        let defaults = Settings::default();
        for setting in SETTINGS.iter().filter(|s| s.meta.tune.is_some()) {
            for size in [9, 19] {
                assert!(
                    defaults.effective_number(setting, size).is_some(),
                    "{} has no number on {size}x{size}",
                    setting.meta.key
                );
            }
        }
        let find = |key| Settings::find(key).unwrap();
        assert_eq!(defaults.effective_number(find("expand"), 7), Some(2.0));
        assert_eq!(
            defaults.effective_number(find("prior-weight"), 19),
            Some(f64::from(18.26_f32))
        );
        let light = {
            let mut s = Settings::default();
            s.search.playout.playout = PlayoutKind::Light;
            s.search.priors = PriorsKind::Heuristic;
            s
        };
        assert_eq!(light.effective_number(find("prior-weight"), 9), Some(0.0));
        assert!((light.effective_number(find("exploration"), 9).unwrap() - 0.02).abs() < 1e-6);
        assert_eq!(defaults.effective_number(find("rave"), 9), Some(1556.0));
        assert_eq!(defaults.effective_number(find("rave"), 19), Some(1556.0));
        assert_eq!(
            defaults.effective_number(find("rave-prior"), 19),
            Some(f64::from(0.032_f32))
        );
        assert_eq!(defaults.effective_number(find("playouts"), 9), None);
    }

    #[test]
    fn size_dependent_defaults() {
        let s = Settings::default();
        assert_eq!(
            (s.search.expand_visits(7), s.search.expand_visits(9)),
            (2, 8)
        );
        assert_eq!(s.search.pattern_prior_weight(), 18.26);
        let selection = s.search.selection();
        assert_eq!(
            (
                selection.exploration,
                selection.rave,
                selection.rave_prior,
                selection.fpu
            ),
            (0.0057, 1556.0, 0.032, 0.873)
        );
        assert_eq!(s.search.heuristic_shape_weight(), None);
        let light = {
            let mut s = Settings::default();
            s.search.playout.playout = PlayoutKind::Light;
            s.search.prior_weight = Auto::Value(35.0);
            s.search.expand = Auto::Value(4);
            s
        };
        assert_eq!(light.search.exploration_constant(), 0.02);
        assert_eq!(light.search.pattern_prior_weight(), 35.0);
        assert_eq!(light.search.heuristic_shape_weight(), Some(35.0));
        assert_eq!(light.search.expand_visits(19), 4);
    }
}
