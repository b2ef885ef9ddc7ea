//! Reading one input line of KataGo's analysis protocol: a JSON object that is either an
//! analysis query or an action (`query_version`, `clear_cache`, `terminate`,
//! `terminate_all`). [`parse_line`] turns it into a plain [`Request`] (a [`Query`] holds
//! the start position, every move checked for legality, and the search's options) or a
//! [`QueryError`] naming the field at fault. Fields hane reads but cannot honour, and
//! fields it does not know, become [`Warning`]s; nothing here searches or writes.

use std::time::Duration;

use serde_json::{Map, Value};

use crate::board::{
    Color, GameState, Geometry, HandicapCompensation, KoRule, Move, Point, Rules, komi_is_sane,
};
use crate::search::avoid::AvoidMoves;
use crate::settings::{Scope, Settings};

/// Whose point of view winrates, score leads and ownership are reported from (KataGo's
/// `reportAnalysisWinratesAs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Perspective {
    /// Black's: a winrate of 0.9 means black is very likely to win.
    Black,
    /// White's.
    White,
    /// The player to move at the analysed turn.
    SideToMove,
}

impl Perspective {
    /// Parses `BLACK`, `WHITE` or `SIDETOMOVE` (any case).
    pub fn parse(text: &str) -> Option<Perspective> {
        match text.to_ascii_uppercase().as_str() {
            "BLACK" | "B" => Some(Perspective::Black),
            "WHITE" | "W" => Some(Perspective::White),
            "SIDETOMOVE" => Some(Perspective::SideToMove),
            _ => None,
        }
    }

    /// The colour whose view is reported when `to_move` is to move.
    pub fn color(self, to_move: Color) -> Color {
        match self {
            Perspective::Black => Color::Black,
            Perspective::White => Color::White,
            Perspective::SideToMove => to_move,
        }
    }
}

/// A query field hane read but does not honour (or does not know).
#[derive(Clone, Debug, PartialEq)]
pub struct Warning {
    pub field: String,
    pub message: String,
}

/// A line that cannot be acted on, in KataGo's error form.
#[derive(Clone, Debug, PartialEq)]
pub struct QueryError {
    /// The query's id, when one could be read.
    pub id: Option<String>,
    /// The query field at fault, when one is.
    pub field: Option<String>,
    pub message: String,
}

impl QueryError {
    fn new(id: Option<&str>, field: Option<&str>, message: impl Into<String>) -> QueryError {
        QueryError {
            id: id.map(str::to_string),
            field: field.map(str::to_string),
            message: message.into(),
        }
    }
}

/// One analysis query: the game and the searches asked for.
#[derive(Clone, Debug)]
pub struct Query {
    pub id: String,
    /// The position before the first move: size, rules and komi, initial stones, the first
    /// player.
    pub start: GameState,
    /// The game's moves, each checked legal.
    pub moves: Vec<(Color, Move)>,
    /// The turns to analyse (0: the start position; `moves.len()`: after the last move),
    /// each with its priority.
    pub turns: Vec<(usize, i64)>,
    /// Playouts per turn (`maxVisits`), when given.
    pub max_visits: Option<u64>,
    /// Seconds per turn (`overrideSettings.maxTime`), when given.
    pub max_time: Option<Duration>,
    pub include_ownership: bool,
    pub include_policy: bool,
    pub include_pv_visits: bool,
    /// Moves after the first of each principal variation (`analysisPVLen`).
    pub pv_len: Option<usize>,
    /// Partial reports this often (`reportDuringSearchEvery`).
    pub report_every: Option<Duration>,
    /// Moves barred near the root (`avoidMoves`, `allowMoves`).
    pub avoid: AvoidMoves,
    /// The point of view of the reported values (`overrideSettings.reportAnalysisWinratesAs`),
    /// when the query names one.
    pub perspective: Option<Perspective>,
    /// The engine's settings with the query's `overrideSettings` of hane setting names
    /// applied.
    pub settings: Settings,
    pub warnings: Vec<Warning>,
}

impl Query {
    /// The position at `turn` (0 ..= moves.len()) and the player to move there: the player
    /// of the next move in the record when there is one.
    pub fn position(&self, turn: usize) -> (GameState, Color) {
        let mut state = self.start.clone();
        for &(color, mv) in &self.moves[..turn.min(self.moves.len())] {
            if state.play(color, mv).is_err() {
                // Checked when the query was read; never reached.
                break;
            }
        }
        let to_move = self
            .moves
            .get(turn)
            .map_or(state.to_move(), |&(color, _)| color);
        (state, to_move)
    }
}

/// What one input line asks for.
#[derive(Clone, Debug)]
pub enum Request {
    Analyze(Box<Query>),
    /// `query_version`; `echo` is the query object, answered with fields added.
    QueryVersion {
        echo: Map<String, Value>,
    },
    /// `clear_cache`: forget the kept search trees.
    ClearCache {
        echo: Map<String, Value>,
    },
    /// `terminate` (`target` set) or `terminate_all` (`target` none), restricted to
    /// `turns` when given.
    Terminate {
        target: Option<String>,
        turns: Option<Vec<usize>>,
        echo: Map<String, Value>,
    },
}

/// The actions a line may ask for instead of an analysis, as the parser matches them.
pub(crate) const ACTIONS: &[&str] = &["query_version", "clear_cache", "terminate", "terminate_all"];

/// Query fields read and honoured (or deliberately accepted without effect, see
/// [`IGNORED`]).
pub(crate) const KNOWN: &[&str] = &[
    "id",
    "action",
    "moves",
    "initialStones",
    "initialPlayer",
    "rules",
    "komi",
    "whiteHandicapBonus",
    "boardXSize",
    "boardYSize",
    "analyzeTurns",
    "maxVisits",
    "includeOwnership",
    "includePolicy",
    "includePVVisits",
    "analysisPVLen",
    "avoidMoves",
    "allowMoves",
    "overrideSettings",
    "reportDuringSearchEvery",
    "priority",
    "priorities",
];

/// Query fields KataGo knows that hane cannot honour: accepted with a warning when they
/// ask for something (a `true` flag, a number).
const IGNORED: &[(&str, &str)] = &[
    (
        "includeMovesOwnership",
        "hane keeps no ownership per candidate move",
    ),
    (
        "includeOwnershipStdev",
        "hane keeps no ownership standard deviation",
    ),
    (
        "includeMovesOwnershipStdev",
        "hane keeps no ownership standard deviation",
    ),
    (
        "includeNoResultValue",
        "hane's playouts never end without a result",
    ),
    ("rootPolicyTemperature", "hane has no policy network"),
    (
        "rootFpuReductionMax",
        "hane's first-play urgency is its fpu setting",
    ),
];

/// Longest game record read: more moves than this is refused.
pub const MAX_MOVES: usize = 10_000;

/// Parses one input line (see the module documentation), with `defaults` the engine's
/// settings (see [`parse_query_with`]).
pub fn parse_line(line: &str, defaults: &Settings) -> Result<Request, QueryError> {
    let value: Value = serde_json::from_str(line)
        .map_err(|e| QueryError::new(None, None, format!("Could not parse json: {e}")))?;
    let Value::Object(object) = value else {
        return Err(QueryError::new(None, None, "Query is not a json object"));
    };
    let id = match object.get("id") {
        Some(Value::String(id)) => id.clone(),
        Some(Value::Number(n)) => n.to_string(),
        Some(_) => {
            return Err(QueryError::new(
                None,
                Some("id"),
                "Field id must be a string",
            ));
        }
        None => {
            return Err(QueryError::new(
                None,
                Some("id"),
                "Query is missing required field id",
            ));
        }
    };
    if let Some(action) = object.get("action") {
        return parse_action(&id, action, object.clone());
    }
    parse_query_with(id, &object, defaults).map(|q| Request::Analyze(Box::new(q)))
}

fn parse_action(
    id: &str,
    action: &Value,
    object: Map<String, Value>,
) -> Result<Request, QueryError> {
    let err = |field: &str, message: String| QueryError::new(Some(id), Some(field), message);
    let Some(action) = action.as_str() else {
        return Err(err("action", "Field action must be a string".into()));
    };
    let turns = |object: &Map<String, Value>| -> Result<Option<Vec<usize>>, QueryError> {
        match object.get("turnNumbers") {
            None | Some(Value::Null) => Ok(None),
            Some(value) => turn_list(value)
                .map(Some)
                .ok_or_else(|| err("turnNumbers", "Must be an array of turn numbers".into())),
        }
    };
    match action {
        "query_version" => Ok(Request::QueryVersion { echo: object }),
        "clear_cache" => Ok(Request::ClearCache { echo: object }),
        "terminate" => {
            let target = match object.get("terminateId") {
                Some(Value::String(t)) => t.clone(),
                Some(_) => return Err(err("terminateId", "Must be a string".into())),
                None => {
                    return Err(err(
                        "terminateId",
                        "Action terminate needs the field terminateId".into(),
                    ));
                }
            };
            let turns = turns(&object)?;
            Ok(Request::Terminate {
                target: Some(target),
                turns,
                echo: object,
            })
        }
        "terminate_all" => {
            let turns = turns(&object)?;
            Ok(Request::Terminate {
                target: None,
                turns,
                echo: object,
            })
        }
        other => Err(err(
            "action",
            format!("Unknown action {other:?} (known: {})", ACTIONS.join(", ")),
        )),
    }
}

/// A JSON array of non-negative integers.
fn turn_list(value: &Value) -> Option<Vec<usize>> {
    value
        .as_array()?
        .iter()
        .map(|v| v.as_u64().and_then(|n| usize::try_from(n).ok()))
        .collect()
}

/// The query's fields, read with their errors naming the field.
struct Fields<'a> {
    id: &'a str,
    object: &'a Map<String, Value>,
}

impl Fields<'_> {
    fn err(&self, field: &str, message: impl Into<String>) -> QueryError {
        QueryError::new(Some(self.id), Some(field), message)
    }

    fn get(&self, field: &str) -> Option<&Value> {
        self.object.get(field).filter(|v| !v.is_null())
    }

    fn bool(&self, field: &str) -> Result<bool, QueryError> {
        match self.get(field) {
            None => Ok(false),
            Some(Value::Bool(b)) => Ok(*b),
            Some(_) => Err(self.err(field, format!("Field {field} must be a boolean"))),
        }
    }

    fn int(&self, field: &str) -> Result<Option<i64>, QueryError> {
        match self.get(field) {
            None => Ok(None),
            Some(v) => v
                .as_i64()
                .or_else(|| v.as_f64().filter(|f| f.fract() == 0.0).map(|f| f as i64))
                .map(Some)
                .ok_or_else(|| self.err(field, format!("Field {field} must be an integer"))),
        }
    }

    fn number(&self, field: &str) -> Result<Option<f64>, QueryError> {
        match self.get(field) {
            None => Ok(None),
            Some(v) => v
                .as_f64()
                .map(Some)
                .ok_or_else(|| self.err(field, format!("Field {field} must be a number"))),
        }
    }

    fn player(&self, field: &str, value: &Value) -> Result<Color, QueryError> {
        value
            .as_str()
            .and_then(Color::parse)
            .ok_or_else(|| self.err(field, format!("Could not parse player: {value}")))
    }

    /// `[[player, location], ...]`.
    fn placements(
        &self,
        field: &str,
        geometry: Geometry,
    ) -> Result<Vec<(Color, Move)>, QueryError> {
        let Some(value) = self.get(field) else {
            return Ok(Vec::new());
        };
        let Some(items) = value.as_array() else {
            return Err(self.err(field, format!("Field {field} must be an array")));
        };
        if items.len() > MAX_MOVES {
            return Err(self.err(field, format!("More than {MAX_MOVES} entries")));
        }
        items
            .iter()
            .map(|item| {
                let pair = item.as_array().filter(|a| a.len() == 2).ok_or_else(|| {
                    self.err(
                        field,
                        format!("Each entry must be a [player, location] pair: {item}"),
                    )
                })?;
                let color = self.player(field, &pair[0])?;
                let mv = pair[1]
                    .as_str()
                    .and_then(|text| parse_location(geometry, text))
                    .ok_or_else(|| {
                        self.err(field, format!("Could not parse location: {}", pair[1]))
                    })?;
                Ok((color, mv))
            })
            .collect()
    }
}

/// A GTP vertex (`Q4`, `pass`) or KataGo's `(x,y)` (x from the left, y from the top, both
/// from 0).
pub fn parse_location(geometry: Geometry, text: &str) -> Option<Move> {
    let text = text.trim();
    if let Some(inner) = text.strip_prefix('(').and_then(|t| t.strip_suffix(')')) {
        let (x, y) = inner.split_once(',')?;
        let x: usize = x.trim().parse().ok()?;
        let y: usize = y.trim().parse().ok()?;
        let size = geometry.size();
        if y >= size {
            return None;
        }
        return geometry.point(x, size - 1 - y).map(Move::Play);
    }
    Move::parse(geometry, text)
}

/// KataGo's rules: a name (`tromp-taylor`, `chinese`, `japanese`, ...) or an object with
/// `ko`, `scoring`, `tax`, `suicide`, `hasButton`, `whiteHandicapBonus`. hane scores by
/// area only: territory scoring, a tax and the button are approximated by plain area
/// scoring, with a warning.
pub fn parse_rules(value: &Value, warnings: &mut Vec<Warning>) -> Result<Rules, String> {
    let komi = Rules::default().komi;
    let mut warn = |message: String| {
        warnings.push(Warning {
            field: "rules".into(),
            message,
        })
    };
    let area = |ko, suicide_allowed, handicap_compensation| Rules {
        ko,
        suicide_allowed,
        komi,
        handicap_compensation,
    };
    use HandicapCompensation as H;
    use KoRule as K;
    match value {
        Value::String(name) => {
            let key = name.to_ascii_lowercase().replace(['_', ' '], "-");
            Ok(match key.as_str() {
                "tromp-taylor" | "tt" => area(K::PositionalSuperko, true, H::None),
                "chinese" => area(K::Simple, false, H::Full),
                "chinese-ogs" | "chinese-kgs" => area(K::PositionalSuperko, false, H::Full),
                "aga" | "bga" | "french" => area(K::SituationalSuperko, false, H::AllButOne),
                "aga-button" => {
                    warn("the button is not played: scored as aga".into());
                    area(K::SituationalSuperko, false, H::AllButOne)
                }
                "new-zealand" | "nz" => area(K::SituationalSuperko, true, H::None),
                "japanese" | "korean" => {
                    warn(format!(
                        "{name} rules use territory scoring: hane scores by area (simple ko, no suicide)"
                    ));
                    area(K::Simple, false, H::None)
                }
                "stone-scoring" => {
                    warn("stone scoring is approximated by area scoring".into());
                    area(K::Simple, false, H::None)
                }
                other => other.parse::<Rules>().map_err(|_| {
                    format!(
                        "Unknown rules {name:?} (tromp-taylor, chinese, chinese-ogs, chinese-kgs, \
                         japanese, korean, stone-scoring, aga, bga, new-zealand, aga-button)"
                    )
                })?,
            })
        }
        Value::Object(object) => {
            let mut rules = area(K::PositionalSuperko, false, H::None);
            for (key, value) in object {
                let text = value.as_str().map(str::to_ascii_uppercase);
                match (key.as_str(), text.as_deref()) {
                    ("ko", Some("SIMPLE")) => rules.ko = K::Simple,
                    ("ko", Some("POSITIONAL")) => rules.ko = K::PositionalSuperko,
                    ("ko", Some("SITUATIONAL")) => rules.ko = K::SituationalSuperko,
                    ("scoring", Some("AREA")) => {}
                    ("scoring", Some("TERRITORY")) => {
                        warn("territory scoring is approximated by area scoring".into())
                    }
                    ("tax", Some("NONE")) => {}
                    ("tax", Some("SEKI" | "ALL")) => {
                        warn("the tax is not applied: hane scores by area".into())
                    }
                    ("suicide", _) if value.is_boolean() => {
                        rules.suicide_allowed = value.as_bool() == Some(true)
                    }
                    ("hasButton", _) if value.is_boolean() => {
                        if value.as_bool() == Some(true) {
                            warn("the button is not played".into());
                        }
                    }
                    ("friendlyPassOk", _) if value.is_boolean() => {}
                    ("whiteHandicapBonus", _) => {
                        rules.handicap_compensation = handicap_bonus(value)?;
                    }
                    _ => return Err(format!("Bad rules field {key:?}: {value}")),
                }
            }
            Ok(rules)
        }
        _ => Err("Field rules must be a string or an object".into()),
    }
}

/// `whiteHandicapBonus`: `"0"`, `"N"` or `"N-1"`.
fn handicap_bonus(value: &Value) -> Result<HandicapCompensation, String> {
    match value.as_str().map(str::to_ascii_uppercase).as_deref() {
        Some("0") => Ok(HandicapCompensation::None),
        Some("N") => Ok(HandicapCompensation::Full),
        Some("N-1") => Ok(HandicapCompensation::AllButOne),
        _ if value.as_i64() == Some(0) => Ok(HandicapCompensation::None),
        _ => Err(format!(
            "whiteHandicapBonus must be \"0\", \"N\" or \"N-1\": {value}"
        )),
    }
}

/// Parses an analysis query with `defaults` as the engine's settings (rules and komi when
/// the query names none; the base of `overrideSettings`).
pub fn parse_query_with(
    id: String,
    object: &Map<String, Value>,
    defaults: &Settings,
) -> Result<Query, QueryError> {
    let f = Fields { id: &id, object };
    let mut warnings = Vec::new();
    for key in object.keys() {
        if KNOWN.contains(&key.as_str()) {
            continue;
        }
        match IGNORED.iter().find(|(name, _)| name == key) {
            Some((_, why)) => {
                let value = &object[key];
                if value.as_bool() == Some(true) || value.is_number() {
                    warnings.push(Warning {
                        field: key.clone(),
                        message: format!("ignored: {why}"),
                    });
                }
            }
            None => warnings.push(Warning {
                field: key.clone(),
                message: "unknown field, ignored".into(),
            }),
        }
    }

    // Board.
    let size_of = |field: &str| -> Result<usize, QueryError> {
        let n = f
            .int(field)?
            .ok_or_else(|| f.err(field, format!("Query is missing required field {field}")))?;
        usize::try_from(n)
            .ok()
            .filter(|n| (2..=25).contains(n))
            .ok_or_else(|| {
                f.err(
                    field,
                    format!("Board size {n} unsupported: hane plays 2..=25"),
                )
            })
    };
    let x = size_of("boardXSize")?;
    let y = size_of("boardYSize")?;
    if x != y {
        return Err(f.err(
            "boardYSize",
            format!("Board {x}x{y} unsupported: hane plays square boards only"),
        ));
    }
    let geometry = Geometry::new(x).ok_or_else(|| f.err("boardXSize", "Bad board size"))?;

    // Rules and komi.
    let mut rules = match f.get("rules") {
        Some(value) => parse_rules(value, &mut warnings).map_err(|e| f.err("rules", e))?,
        None => defaults.game.rules,
    };
    if let Some(value) = f.get("whiteHandicapBonus") {
        rules.handicap_compensation =
            handicap_bonus(value).map_err(|e| f.err("whiteHandicapBonus", e))?;
    }
    rules.komi = match f.number("komi")? {
        Some(komi) if komi_is_sane(komi) && komi.abs() <= 150.0 => komi as f32,
        Some(komi) => {
            return Err(f.err(
                "komi",
                format!("Komi {komi} unsupported: it must lie in [-150, 150]"),
            ));
        }
        None => defaults.game.komi,
    };

    // Start position.
    let mut start =
        GameState::new(x, rules).ok_or_else(|| f.err("boardXSize", "Bad board size"))?;
    let initial = f.placements("initialStones", geometry)?;
    let mut stones: Vec<(Color, Point)> = Vec::with_capacity(initial.len());
    for &(color, mv) in &initial {
        match mv {
            Move::Play(p) => stones.push((color, p)),
            Move::Pass => return Err(f.err("initialStones", "A pass is not a stone")),
        }
    }
    let handicap = stones.len() >= 2 && stones.iter().all(|&(c, _)| c == Color::Black);
    let placed = if handicap {
        let points: Vec<Point> = stones.iter().map(|&(_, p)| p).collect();
        start.set_free_handicap(&points)
    } else {
        start.add_setup_stones(&stones)
    };
    placed.map_err(|e| f.err("initialStones", format!("Bad initial stones: {e}")))?;
    let moves = f.placements("moves", geometry)?;
    if f.get("moves").is_none() {
        return Err(f.err("moves", "Query is missing required field moves"));
    }
    let first = match f.get("initialPlayer") {
        Some(value) => Some(f.player("initialPlayer", value)?),
        None => moves.first().map(|&(c, _)| c),
    };
    if let Some(color) = first {
        start.set_to_move(color);
    }
    let mut state = start.clone();
    for (i, &(color, mv)) in moves.iter().enumerate() {
        if let Err(e) = state.play(color, mv) {
            return Err(f.err(
                "moves",
                format!(
                    "Illegal move {i}: {} {} ({e})",
                    color.letter(),
                    mv.to_gtp(geometry)
                ),
            ));
        }
    }

    // Turns and priorities.
    let turns: Vec<usize> = match f.get("analyzeTurns") {
        None => vec![moves.len()],
        Some(value) => {
            let turns = turn_list(value).ok_or_else(|| {
                f.err(
                    "analyzeTurns",
                    "Field analyzeTurns must be an array of integers",
                )
            })?;
            if let Some(bad) = turns.iter().find(|&&t| t > moves.len()) {
                return Err(f.err(
                    "analyzeTurns",
                    format!(
                        "Invalid turn number {bad}: the game has {} moves",
                        moves.len()
                    ),
                ));
            }
            turns
        }
    };
    let priority = f.int("priority")?.unwrap_or(0);
    let priorities: Vec<i64> = match f.get("priorities") {
        None => vec![priority; turns.len()],
        Some(value) => {
            let list: Option<Vec<i64>> = value
                .as_array()
                .map(|a| a.iter().map(Value::as_i64).collect())
                .unwrap_or(None);
            match list {
                Some(list) if list.len() == turns.len() => list,
                _ => {
                    return Err(f.err(
                        "priorities",
                        "Field priorities must be an array of integers as long as analyzeTurns",
                    ));
                }
            }
        }
    };

    // Search options.
    let max_visits = match f.int("maxVisits")? {
        None => None,
        Some(n) if n >= 1 => Some(n as u64),
        Some(n) => return Err(f.err("maxVisits", format!("maxVisits must be positive: {n}"))),
    };
    let pv_len = match f.int("analysisPVLen")? {
        None => None,
        Some(n) if n >= 0 => Some(n as usize),
        Some(n) => return Err(f.err("analysisPVLen", format!("Must not be negative: {n}"))),
    };
    let report_every = match f.number("reportDuringSearchEvery")? {
        None => None,
        Some(s) if s > 0.0 && s < 1e6 => Some(Duration::from_secs_f64(s.max(0.001))),
        Some(s) => {
            return Err(f.err(
                "reportDuringSearchEvery",
                format!("Must be a positive number of seconds: {s}"),
            ));
        }
    };
    let mut avoid = AvoidMoves::new();
    for field in ["avoidMoves", "allowMoves"] {
        let Some(value) = f.get(field) else { continue };
        let entries = value
            .as_array()
            .ok_or_else(|| f.err(field, format!("Field {field} must be an array")))?;
        if field == "allowMoves" && entries.len() > 1 {
            return Err(f.err(field, "allowMoves takes one entry"));
        }
        for entry in entries {
            let bad = || {
                f.err(
                    field,
                    format!("Bad entry {entry}: needs player, moves, untilDepth"),
                )
            };
            let entry = entry.as_object().ok_or_else(bad)?;
            let color = f.player(field, entry.get("player").ok_or_else(bad)?)?;
            let depth = entry
                .get("untilDepth")
                .and_then(Value::as_u64)
                .filter(|&d| d >= 1)
                .ok_or_else(bad)?;
            let depth = u32::try_from(depth).unwrap_or(u32::MAX);
            let list = entry
                .get("moves")
                .and_then(Value::as_array)
                .ok_or_else(bad)?;
            let mut moves = Vec::with_capacity(list.len());
            for item in list {
                let mv = item
                    .as_str()
                    .and_then(|text| parse_location(geometry, text))
                    .ok_or_else(|| f.err(field, format!("Could not parse location: {item}")))?;
                moves.push(mv);
            }
            if field == "avoidMoves" {
                for mv in moves {
                    avoid.avoid(color, mv, depth);
                }
            } else {
                avoid.allow_only(geometry, color, &moves, depth);
            }
        }
    }

    // overrideSettings: the perspective, maxTime, and hane's own search settings by name.
    let mut settings = defaults.clone();
    let mut perspective = None;
    let mut max_time = None;
    if let Some(value) = f.get("overrideSettings") {
        let object = value.as_object().ok_or_else(|| {
            f.err(
                "overrideSettings",
                "Field overrideSettings must be an object",
            )
        })?;
        for (key, value) in object {
            match key.as_str() {
                "reportAnalysisWinratesAs" => {
                    perspective = Some(value.as_str().and_then(Perspective::parse).ok_or_else(
                        || {
                            f.err(
                                "overrideSettings",
                                format!(
                                    "reportAnalysisWinratesAs must be BLACK, WHITE or SIDETOMOVE: {value}"
                                ),
                            )
                        },
                    )?);
                }
                "maxTime" => {
                    let seconds =
                        value
                            .as_f64()
                            .filter(|s| *s > 0.0 && *s < 1e6)
                            .ok_or_else(|| {
                                f.err(
                                    "overrideSettings",
                                    format!("maxTime must be positive: {value}"),
                                )
                            })?;
                    max_time = Some(Duration::from_secs_f64(seconds));
                }
                "maxVisits" | "maxPlayouts" => {
                    warnings.push(Warning {
                        field: "overrideSettings".into(),
                        message: format!("{key} ignored: use the query's maxVisits"),
                    });
                }
                _ if is_search_setting(key) => {
                    let text = match value {
                        Value::String(s) => s.clone(),
                        other => other.to_string(),
                    };
                    settings
                        .set(key, &text)
                        .map_err(|e| f.err("overrideSettings", e))?;
                }
                _ => warnings.push(Warning {
                    field: "overrideSettings".into(),
                    message: format!("{key} ignored: not a setting hane has"),
                }),
            }
        }
    }

    Ok(Query {
        turns: turns.into_iter().zip(priorities).collect(),
        include_ownership: f.bool("includeOwnership")?,
        include_policy: f.bool("includePolicy")?,
        include_pv_visits: f.bool("includePVVisits")?,
        id,
        start,
        moves,
        max_visits,
        max_time,
        pv_len,
        report_every,
        avoid,
        perspective,
        settings,
        warnings,
    })
}

/// Whether `key` names one of hane's search settings (which a query may override).
fn is_search_setting(key: &str) -> bool {
    crate::settings::SETTINGS.iter().any(|s| {
        s.meta.scope == Scope::Search && (s.meta.key == key || s.meta.aliases.contains(&key))
    })
}

/// The `"id"` of a JSON object from the start of a line too long to parse, when it holds
/// one: `"id"` followed by a colon and a string without escapes.
pub fn leading_id(prefix: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(prefix);
    let mut rest = text.as_ref();
    while let Some(k) = rest.find("\"id\"") {
        let after = rest[k + 4..].trim_start();
        if let Some(value) = after.strip_prefix(':') {
            let value = value.trim_start();
            if let Some(body) = value.strip_prefix('"')
                && let Some(end) = body.find('"')
                && !body[..end].contains('\\')
                && end <= 256
            {
                return Some(body[..end].to_string());
            }
        }
        rest = &rest[k + 4..];
    }
    None
}

#[cfg(test)]
mod tests;
