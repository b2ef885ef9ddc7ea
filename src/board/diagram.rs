//! Text diagrams of a board position: reading one ([`Board::from_diagram`]), writing one
//! ([`Board::to_diagram`]), and the `Debug` form that prints it.

use std::fmt;

use super::geometry::Cell;
use super::position::Board;

impl Board {
    /// Reads a diagram: one line per row, top row first; `X` or `#` black, `O` or `@`
    /// white, `.`, `+` or `,` empty; spaces ignored. The board size is the number of rows,
    /// and every row must have that many points. Stones are placed as setup; chains left
    /// without liberties are an error.
    pub fn from_diagram(text: &str) -> Result<Board, String> {
        let rows: Vec<Vec<Cell>> = text
            .lines()
            .map(|line| {
                line.chars()
                    .filter(|c| !c.is_whitespace())
                    .map(|c| match c {
                        'X' | 'x' | '#' => Ok(Cell::Black),
                        'O' | 'o' | '@' => Ok(Cell::White),
                        '.' | '+' | ',' => Ok(Cell::Empty),
                        other => Err(format!("unexpected character {other:?} in diagram")),
                    })
                    .collect::<Result<Vec<Cell>, String>>()
            })
            .filter(|row| !matches!(row, Ok(r) if r.is_empty()))
            .collect::<Result<_, _>>()?;
        let size = rows.len();
        let mut board = Board::new(size).ok_or_else(|| format!("unsupported size {size}"))?;
        for (r, row) in rows.iter().enumerate() {
            if row.len() != size {
                return Err(format!(
                    "row {} has {} points, expected {size}",
                    r + 1,
                    row.len()
                ));
            }
            for (c, &cell) in row.iter().enumerate() {
                if let Some(color) = cell.color() {
                    let p = board
                        .geometry
                        .point(c, size - 1 - r)
                        .expect("inside the board");
                    board.play_unchecked(p, color);
                }
            }
        }
        board.ko_point = 0;
        board.captures = [0; 2];
        if board.geometry.points().any(|p| {
            let r = size - 1 - board.geometry.coords(p).1;
            rows[r][board.geometry.coords(p).0] != board.cell(p)
        }) {
            return Err("diagram holds a chain without liberties".to_string());
        }
        Ok(board)
    }

    /// The position as a diagram (`X` black, `O` white, `.` empty), top row first, one
    /// space between points.
    pub fn to_diagram(&self) -> String {
        let size = self.size();
        let mut out = String::with_capacity(size * (2 * size + 1));
        for row in (0..size).rev() {
            for col in 0..size {
                let p = self.geometry.point(col, row).expect("inside the board");
                if col > 0 {
                    out.push(' ');
                }
                out.push(match self.cell(p) {
                    Cell::Black => 'X',
                    Cell::White => 'O',
                    _ => '.',
                });
            }
            out.push('\n');
        }
        out
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Board {}x{}", self.size(), self.size())?;
        f.write_str(&self.to_diagram())
    }
}
