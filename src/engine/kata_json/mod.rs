//! `hane analysis`: KataGo's JSON analysis protocol on stdin and stdout, so that review
//! tools written for KataGo's analysis engine (KaTrain among them) can drive hane. Reading
//! queries is [`query`]'s.

pub mod query;
