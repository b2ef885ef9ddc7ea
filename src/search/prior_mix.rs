//! The one place where the tree's priors are combined: every source of prior knowledge is a
//! [`PriorProvider`] that adds virtual playouts (visits at a value) to the candidate moves
//! of a node, with a weight from [`SearchParams`](crate::settings::SearchParams), and
//! [`PriorSources::mix`] adds them up in a fixed order, for the root and for every
//! expansion alike.
//!
//! | provider | nodes | settings |
//! |---|---|---|
//! | [`MovePriors`]: the learned pattern priors, or the heuristic ones | all | `priors`, `prior-weight` |
//! | [`OpeningLines`]: lonely moves off the third and fourth lines in a large board's opening | all | `opening-prior` |
//! | [`ExpansionReader`]: tactical reads of chains short of liberties, race reads | all | `reading*`, `race*` |
//! | [`DeadFeeding`]: moves feeding a group the root owl read as dead | below the root | `owl-dead-tree` |
//! | [`RootOwl`]: group life and death | root | `owl`, `owl-nodes`, `owl-dead` |
//! | [`ExtraPriors`]: the play layer's root priors (the opening book) | root | `book` |
//!
//! Adding a prior: implement [`PriorProvider`] for it, give [`PriorSources`] a field for it
//! and a line in [`PriorSources::mix`], build it from its setting where the search builds
//! the others (`Searcher::run` for the root's, `SharedSearch` for the per-thread ones).

use crate::board::{Board, Color, Move, Recent};
use crate::pattern::features::Ownership;

use super::opening_prior::OpeningLines;
use super::priors::{MovePriors, Prior};
use super::reading::{DeadFeeding, ExpansionReader, RootOwl};

/// The node whose moves get priors.
#[derive(Clone, Copy, Debug)]
pub struct PriorQuery<'a> {
    pub board: &'a Board,
    /// The player to move.
    pub color: Color,
    /// The last two moves before the node.
    pub recent: Recent,
    /// The candidate moves: `out[k]` of a provider is the prior of `moves[k]`.
    pub moves: &'a [Move],
    /// The ownership tally of the search's root (the pattern feature `owner`), when the
    /// pattern table uses it.
    pub owner: Option<&'a Ownership>,
}

impl<'a> PriorQuery<'a> {
    /// The node where `color` is to move on `board` after `recent`, with the candidates
    /// `moves`.
    pub fn new(board: &'a Board, color: Color, recent: Recent, moves: &'a [Move]) -> Self {
        PriorQuery {
            board,
            color,
            recent,
            moves,
            owner: None,
        }
    }
}

/// A source of prior knowledge about the moves of a tree node.
pub trait PriorProvider {
    /// Adds this source's virtual playouts to `out` (`out[k]` for `query.moves[k]`).
    /// Called at most once per node, from the thread that expands it; must not allocate
    /// when it runs at expansions.
    fn add_priors(&mut self, query: &PriorQuery<'_>, out: &mut [Prior]);
}

impl PriorProvider for &dyn MovePriors {
    fn add_priors(&mut self, query: &PriorQuery<'_>, out: &mut [Prior]) {
        self.priors(query, out);
    }
}

impl PriorProvider for ExpansionReader {
    fn add_priors(&mut self, query: &PriorQuery<'_>, out: &mut [Prior]) {
        ExpansionReader::add_priors(self, query, out);
    }
}

impl PriorProvider for DeadFeeding<'_> {
    fn add_priors(&mut self, query: &PriorQuery<'_>, out: &mut [Prior]) {
        DeadFeeding::add_priors(self, query, out);
    }
}

impl PriorProvider for RootOwl {
    fn add_priors(&mut self, query: &PriorQuery<'_>, out: &mut [Prior]) {
        RootOwl::add_priors(self, query.board, query.color, query.moves, out);
    }
}

/// An extra prior of one root move: `visits` virtual playouts won at rate `value`, on top
/// of the others (the play layer's hook for its opening book).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RootPrior {
    pub mv: Move,
    pub visits: f32,
    pub value: f32,
}

/// The play layer's extra root priors as a provider.
#[derive(Clone, Copy, Debug)]
pub struct ExtraPriors<'a>(pub &'a [RootPrior]);

impl PriorProvider for ExtraPriors<'_> {
    fn add_priors(&mut self, query: &PriorQuery<'_>, out: &mut [Prior]) {
        for x in self.0 {
            if let Some(k) = query.moves.iter().position(|&m| m == x.mv) {
                out[k].add(x.visits, x.value);
            }
        }
    }
}

/// The providers of one node: those of every node, and at the root its own.
pub struct PriorSources<'a> {
    /// The move priors (patterns or heuristic).
    pub moves: &'a dyn MovePriors,
    /// The opening prior, when it is on.
    pub opening: Option<OpeningLines>,
    /// The calling thread's reader, when the tree reads.
    pub reader: Option<&'a mut ExpansionReader>,
    /// Below the root: the virtual losses of moves feeding the root's dead groups
    /// (`owl-dead-tree`).
    pub dead: Option<DeadFeeding<'a>>,
    /// At the root: the owl, when it is on.
    pub owl: Option<&'a mut RootOwl>,
    /// At the root: the play layer's extra priors.
    pub extra: ExtraPriors<'a>,
}

impl<'a> PriorSources<'a> {
    /// The providers of a node below the root.
    pub fn expansion(
        moves: &'a dyn MovePriors,
        opening: Option<OpeningLines>,
        reader: Option<&'a mut ExpansionReader>,
        dead: Option<DeadFeeding<'a>>,
    ) -> PriorSources<'a> {
        PriorSources {
            moves,
            opening,
            reader,
            dead,
            owl: None,
            extra: ExtraPriors(&[]),
        }
    }

    /// The providers of the root: those of every node, the owl and the extra priors.
    pub fn root(
        moves: &'a dyn MovePriors,
        params: &crate::settings::SearchParams,
        reader: Option<&'a mut ExpansionReader>,
        owl: Option<&'a mut RootOwl>,
        extra: &'a [RootPrior],
    ) -> PriorSources<'a> {
        PriorSources {
            moves,
            opening: OpeningLines::configured(params),
            reader,
            dead: None,
            owl,
            extra: ExtraPriors(extra),
        }
    }

    /// Whether some provider is the root's own (a kept root's edges, priced when it was a
    /// deeper node, then lack its priors).
    pub fn has_root_only(&self) -> bool {
        self.owl.is_some() || !self.extra.0.is_empty()
    }

    /// The priors of `query.moves`, every provider's added up, into `out` (resized to the
    /// moves).
    pub fn mix(&mut self, query: &PriorQuery<'_>, out: &mut Vec<Prior>) {
        out.clear();
        out.resize(query.moves.len(), Prior::NONE);
        PriorProvider::add_priors(&mut self.moves, query, out);
        if let Some(opening) = self.opening.as_mut() {
            opening.add_priors(query, out);
        }
        if let Some(reader) = self.reader.as_deref_mut() {
            PriorProvider::add_priors(reader, query, out);
        }
        if let Some(dead) = self.dead.as_mut() {
            PriorProvider::add_priors(dead, query, out);
        }
        if let Some(owl) = self.owl.as_deref_mut() {
            PriorProvider::add_priors(owl, query, out);
        }
        self.extra.add_priors(query, out);
    }
}
