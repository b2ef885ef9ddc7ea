//! Tests of the module `query`.

use super::*;

fn parse(line: &str) -> Result<Request, QueryError> {
    parse_line(line, &Settings::default())
}

fn query(line: &str) -> Query {
    match parse(line) {
        Ok(Request::Analyze(q)) => *q,
        other => panic!("{line}: {other:?}"),
    }
}

fn error(line: &str) -> QueryError {
    parse(line).expect_err(line)
}

const BASE: &str = r#""id":"q","boardXSize":9,"boardYSize":9,"rules":"tromp-taylor""#;

#[test]
fn a_query_is_read_with_its_defaults() {
    let q = query(&format!(
        r#"{{{BASE},"komi":6.5,"moves":[["B","E5"],["W","c3"],["B","pass"]]}}"#
    ));
    assert_eq!(q.id, "q");
    assert_eq!(q.start.size(), 9);
    assert_eq!(q.start.komi(), 6.5);
    assert!(q.start.rules().suicide_allowed);
    assert_eq!(q.moves.len(), 3);
    assert_eq!(q.moves[2], (Color::Black, Move::Pass));
    assert_eq!(q.turns, [(3, 0)]);
    assert_eq!(q.max_visits, None);
    assert!(!q.include_ownership && !q.include_policy && !q.include_pv_visits);
    assert!(q.warnings.is_empty(), "{:?}", q.warnings);
    let (state, to_move) = q.position(3);
    assert_eq!((state.moves().len(), to_move), (3, Color::White));
    // Before a recorded move, the player to move is that move's.
    let (state, to_move) = q.position(1);
    assert_eq!((state.moves().len(), to_move), (1, Color::White));
    // No komi: the komi setting's.
    let q = query(&format!(r#"{{{BASE},"moves":[]}}"#));
    assert_eq!(q.start.komi(), Settings::default().game.komi);
}

#[test]
fn options_turns_and_priorities() {
    let q = query(&format!(
        r#"{{{BASE},"moves":[["B","E5"],["W","C3"]],"analyzeTurns":[0,2],"maxVisits":50,
        "includeOwnership":true,"includePolicy":true,"includePVVisits":true,"priorities":[3,-1],
        "reportDuringSearchEvery":0.5,"analysisPVLen":4,
        "overrideSettings":{{"reportAnalysisWinratesAs":"BLACK","maxTime":2.5,"rave":"900"}}}}"#
    ));
    assert_eq!(q.turns, [(0, 3), (2, -1)]);
    assert_eq!(q.max_visits, Some(50));
    assert!(q.include_ownership && q.include_policy && q.include_pv_visits);
    assert_eq!(q.report_every, Some(Duration::from_millis(500)));
    assert_eq!(q.pv_len, Some(4));
    assert_eq!(q.perspective, Some(Perspective::Black));
    assert_eq!(q.max_time, Some(Duration::from_secs_f64(2.5)));
    assert_eq!(q.settings.search.rave, 900.0);
    let q = query(&format!(
        r#"{{{BASE},"moves":[],"priority":7,"analyzeTurns":[0,0]}}"#
    ));
    assert_eq!(q.turns, [(0, 7), (0, 7)]);
}

#[test]
fn setup_stones_handicap_and_initial_player() {
    let q = query(&format!(
        r#"{{{BASE},"initialStones":[["B","C3"],["B","G7"]],"moves":[]}}"#
    ));
    assert_eq!(q.start.handicap(), 2);
    assert_eq!(q.position(0).1, Color::White);
    let q = query(&format!(
        r#"{{{BASE},"initialStones":[["B","C3"],["W","G7"]],"initialPlayer":"W","moves":[]}}"#
    ));
    assert_eq!(q.start.handicap(), 0);
    assert_eq!(q.start.setup_stones().len(), 2);
    assert_eq!(q.position(0).1, Color::White);
    let e = error(&format!(
        r#"{{{BASE},"initialStones":[["B","C3"],["W","C3"]],"moves":[]}}"#
    ));
    assert_eq!(e.field.as_deref(), Some("initialStones"));
}

#[test]
fn locations_in_both_spellings() {
    let g = Geometry::new(19).unwrap();
    assert_eq!(parse_location(g, "Q16"), Move::parse(g, "Q16"));
    assert_eq!(parse_location(g, "PASS"), Some(Move::Pass));
    // (x, y) from the top-left corner.
    assert_eq!(parse_location(g, "(0,0)"), Move::parse(g, "A19"));
    assert_eq!(parse_location(g, "(3, 15)"), Move::parse(g, "D4"));
    for bad in ["(19,0)", "(0,19)", "(1)", "Z1", "I5", "", "(a,b)"] {
        assert_eq!(parse_location(g, bad), None, "{bad}");
    }
}

#[test]
fn rules_by_name_and_object() {
    let mut w = Vec::new();
    let r = parse_rules(&json("\"japanese\""), &mut w).unwrap();
    assert_eq!((r.ko, r.suicide_allowed), (KoRule::Simple, false));
    assert_eq!(
        w.len(),
        1,
        "territory scoring is approximated, with a warning"
    );
    w.clear();
    let r = parse_rules(&json("\"chinese\""), &mut w).unwrap();
    assert_eq!(r.handicap_compensation, HandicapCompensation::Full);
    let r = parse_rules(&json("\"new zealand\""), &mut w).unwrap();
    assert_eq!(
        (r.ko, r.suicide_allowed),
        (KoRule::SituationalSuperko, true)
    );
    let r = parse_rules(&json("\"stone_scoring\""), &mut w).unwrap();
    assert_eq!(r.ko, KoRule::Simple);
    let r = parse_rules(&json("\"aga\""), &mut w).unwrap();
    assert_eq!(r.handicap_compensation, HandicapCompensation::AllButOne);
    w.clear();
    let r = parse_rules(
        &json(r#"{"ko":"SITUATIONAL","scoring":"AREA","tax":"NONE","suicide":true,"hasButton":false,"whiteHandicapBonus":"N-1"}"#),
        &mut w,
    )
    .unwrap();
    assert_eq!(r.ko, KoRule::SituationalSuperko);
    assert!(r.suicide_allowed);
    assert_eq!(r.handicap_compensation, HandicapCompensation::AllButOne);
    assert!(w.is_empty());
    parse_rules(&json(r#"{"scoring":"TERRITORY","tax":"SEKI"}"#), &mut w).unwrap();
    assert_eq!(w.len(), 2);
    for bad in [r#""ing""#, r#"{"ko":"SUPER"}"#, r#"{"colour":"red"}"#, "7"] {
        assert!(parse_rules(&json(bad), &mut w).is_err(), "{bad}");
    }
}

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap()
}

#[test]
fn errors_name_the_id_and_the_field() {
    let e = error("{not json");
    assert_eq!((e.id, e.field), (None, None));
    assert!(e.message.contains("parse json"), "{}", e.message);
    assert!(error("[1,2]").id.is_none());
    let e = error(r#"{"moves":[]}"#);
    assert_eq!(e.field.as_deref(), Some("id"));
    let e = error(r#"{"id":[1]}"#);
    assert_eq!(e.field.as_deref(), Some("id"));
    // The board, without moves.
    let cases = [
        (r#""boardXSize":9,"boardYSize":13"#, "boardYSize", "square"),
        (r#""boardXSize":26,"boardYSize":26"#, "boardXSize", "2..=25"),
        (
            r#""boardXSize":"9","boardYSize":9"#,
            "boardXSize",
            "integer",
        ),
        (r#""boardYSize":9"#, "boardXSize", "missing"),
    ];
    for (board, field, text) in cases {
        expect_error(&format!(r#"{board},"moves":[]"#), field, text);
    }
    // The moves, on a 9x9 board.
    expect_error(r#""boardXSize":9,"boardYSize":9"#, "moves", "missing");
    let cases = [
        (r#"[["B","E5"],["W","E5"]]"#, "Illegal move 1"),
        (r#"[["B","Z9"]]"#, "location"),
        (r#"[["X","E5"]]"#, "player"),
        (r#"[["B"]]"#, "pair"),
        (r#""E5""#, "array"),
    ];
    for (moves, text) in cases {
        let fields = format!(r#""boardXSize":9,"boardYSize":9,"moves":{moves}"#);
        expect_error(&fields, "moves", text);
    }
    // The other fields, on an empty 9x9 board: the field, its value, the error's text.
    let cases = [
        ("komi", r#""7.5""#, "number"),
        ("komi", "1e9", "150"),
        ("rules", r#""go""#, "Unknown rules"),
        ("analyzeTurns", "[1]", "turn"),
        ("analyzeTurns", "[-1]", "integers"),
        ("maxVisits", "0", "positive"),
        ("maxVisits", "1.5", "integer"),
        ("includeOwnership", "1", "boolean"),
        ("priorities", "[1,2]", "as long"),
        (
            "avoidMoves",
            r#"[{"player":"B","moves":["E5"]}]"#,
            "untilDepth",
        ),
        (
            "overrideSettings",
            r#"{"reportAnalysisWinratesAs":"ME"}"#,
            "BLACK",
        ),
        ("overrideSettings", r#"{"rave":"lots"}"#, ""),
        ("reportDuringSearchEvery", "-1", "positive"),
    ];
    for (field, value, text) in cases {
        let fields = format!(r#""boardXSize":9,"boardYSize":9,"moves":[],"{field}":{value}"#);
        expect_error(&fields, field, text);
    }
}

/// Expects the query with the id `e` and `fields` to fail with an error that names the id
/// and `field` and whose message holds `text`.
fn expect_error(fields: &str, field: &str, text: &str) {
    let e = error(&format!(r#"{{"id":"e",{fields}}}"#));
    assert_eq!(e.id.as_deref(), Some("e"), "{fields}");
    assert_eq!(e.field.as_deref(), Some(field), "{fields}: {}", e.message);
    assert!(e.message.contains(text), "{fields}: {}", e.message);
}

#[test]
fn unknown_and_unsupported_fields_warn() {
    let q = query(&format!(
        r#"{{{BASE},"moves":[],"includeMovesOwnership":true,"includeOwnershipStdev":false,
        "colour":"blue","overrideSettings":{{"wideRootNoise":0.04}}}}"#
    ));
    let fields: Vec<&str> = q.warnings.iter().map(|w| w.field.as_str()).collect();
    assert_eq!(
        fields,
        ["colour", "includeMovesOwnership", "overrideSettings"],
        "{:?}",
        q.warnings
    );
}

#[test]
fn avoid_and_allow_moves() {
    let q = query(&format!(
        r#"{{{BASE},"moves":[],"avoidMoves":[{{"player":"B","moves":["E5","pass"],"untilDepth":1}}],
        "allowMoves":[{{"player":"W","moves":["C3"],"untilDepth":2}}]}}"#
    ));
    let g = Geometry::new(9).unwrap();
    let mv = |t| Move::parse(g, t).unwrap();
    assert!(q.avoid.bars(Color::Black, mv("E5"), 1));
    assert!(q.avoid.bars(Color::Black, Move::Pass, 1));
    assert!(!q.avoid.bars(Color::Black, mv("E5"), 2));
    assert!(!q.avoid.bars(Color::White, mv("C3"), 2));
    assert!(q.avoid.bars(Color::White, mv("D3"), 2));
    let e = error(&format!(
        r#"{{{BASE},"moves":[],"allowMoves":[{{"player":"W","moves":["C3"],"untilDepth":1}},{{"player":"B","moves":["C3"],"untilDepth":1}}]}}"#
    ));
    assert_eq!(e.field.as_deref(), Some("allowMoves"));
}

#[test]
fn actions() {
    match parse(r#"{"id":"a","action":"terminate","terminateId":"q","turnNumbers":[1,2]}"#) {
        Ok(Request::Terminate {
            target,
            turns,
            echo,
        }) => {
            assert_eq!(target.as_deref(), Some("q"));
            assert_eq!(turns, Some(vec![1, 2]));
            assert_eq!(echo["id"], "a");
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        parse(r#"{"id":"a","action":"terminate_all"}"#),
        Ok(Request::Terminate {
            target: None,
            turns: None,
            ..
        })
    ));
    assert!(matches!(
        parse(r#"{"id":"a","action":"query_version"}"#),
        Ok(Request::QueryVersion { .. })
    ));
    assert!(matches!(
        parse(r#"{"id":"a","action":"clear_cache"}"#),
        Ok(Request::ClearCache { .. })
    ));
    for (line, field) in [
        (r#"{"id":"a","action":"terminate"}"#, "terminateId"),
        (
            r#"{"id":"a","action":"terminate","terminateId":"q","turnNumbers":"1"}"#,
            "turnNumbers",
        ),
        (r#"{"id":"a","action":"dance"}"#, "action"),
        (r#"{"id":"a","action":3}"#, "action"),
    ] {
        let e = error(line);
        assert_eq!(
            (e.id.as_deref(), e.field.as_deref()),
            (Some("a"), Some(field)),
            "{line}"
        );
    }
}

#[test]
fn the_id_of_a_cut_line() {
    assert_eq!(
        leading_id(br#"{"id": "abc","moves":[["B","#),
        Some("abc".into())
    );
    assert_eq!(leading_id(br#"{"moves":[], "id":"x1""#), Some("x1".into()));
    assert_eq!(leading_id(br#"{"id":"unfinished"#), None);
    assert_eq!(leading_id(br#"{"id":"a\"b"}"#), None);
    assert_eq!(leading_id(br#"{"idx":"a"}"#), None);
}
