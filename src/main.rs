//! The `hane` binary: everything lives in the library; this only hands over to the CLI.

fn main() -> std::process::ExitCode {
    hane::cli::main()
}
