//! Command-line flags derived from the one settings definition ([`crate::settings`]): one
//! `--key VALUE` flag per setting of the scopes a subcommand takes, with the definition's
//! help, default and checks.

use std::fmt;
use std::marker::PhantomData;

use clap::{Arg, ArgAction, ArgMatches, Args, Command, FromArgMatches};

use crate::settings::{SETTINGS, Scope, Setting, Settings};

/// Which settings a subcommand takes as flags.
pub trait ScopeSet {
    const SCOPES: &'static [Scope];
}

/// Every setting: `hane gtp`.
#[derive(Clone, Debug)]
pub struct EngineScopes;
impl ScopeSet for EngineScopes {
    const SCOPES: &'static [Scope] = &[Scope::Search, Scope::Game, Scope::Engine];
}

/// The search and playout settings: `hane bench`.
#[derive(Clone, Debug)]
pub struct SearchScope;
impl ScopeSet for SearchScope {
    const SCOPES: &'static [Scope] = &[Scope::Search];
}

/// The settings given on a command line; the others keep their defaults.
#[derive(Clone)]
pub struct SettingsArgs<S> {
    pub settings: Settings,
    scopes: PhantomData<S>,
}

impl<S> fmt::Debug for SettingsArgs<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.settings.fmt(f)
    }
}

fn in_scope<S: ScopeSet>(setting: &Setting) -> bool {
    S::SCOPES.contains(&setting.meta.scope)
}

/// The flag of `setting`.
fn flag(setting: &'static Setting) -> Arg {
    let key = setting.meta.key;
    let mut arg = Arg::new(key)
        .long(key)
        .value_name(setting.shape)
        .help(format!(
            "{} [default: {}]",
            setting.summary(),
            setting.default_text()
        ))
        .long_help(format!(
            "{} [default: {}]",
            setting.help_text(),
            setting.default_text()
        ))
        .action(ArgAction::Set)
        .allow_negative_numbers(true)
        .value_parser(move |text: &str| -> Result<String, String> {
            Settings::default()
                .set(key, text)
                .map(|()| text.to_string())
        });
    if setting.switch {
        // A switch given alone turns it on (`--ponder`).
        arg = arg.num_args(0..=1).default_missing_value("on");
    }
    if let Some(c) = setting.meta.short {
        arg = arg.short(c);
    }
    arg
}

impl<S: ScopeSet> FromArgMatches for SettingsArgs<S> {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        let mut settings = Settings::default();
        for setting in SETTINGS.iter().filter(|s| in_scope::<S>(s)) {
            if let Some(text) = matches.get_one::<String>(setting.meta.key) {
                settings
                    .set(setting.meta.key, text)
                    .map_err(|e| clap::Error::raw(clap::error::ErrorKind::ValueValidation, e))?;
            }
        }
        Ok(SettingsArgs {
            settings,
            scopes: PhantomData,
        })
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        for setting in SETTINGS.iter().filter(|s| in_scope::<S>(s)) {
            if let Some(text) = matches.get_one::<String>(setting.meta.key) {
                self.settings
                    .set(setting.meta.key, text)
                    .map_err(|e| clap::Error::raw(clap::error::ErrorKind::ValueValidation, e))?;
            }
        }
        Ok(())
    }
}

impl<S: ScopeSet> Args for SettingsArgs<S> {
    fn augment_args(cmd: Command) -> Command {
        SETTINGS
            .iter()
            .filter(|s| in_scope::<S>(s))
            .fold(cmd, |cmd, setting| cmd.arg(flag(setting)))
    }

    fn augment_args_for_update(cmd: Command) -> Command {
        Self::augment_args(cmd)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::{Auto, PlayoutKind};

    #[derive(clap::Parser)]
    struct Cli {
        #[command(flatten)]
        settings: SettingsArgs<EngineScopes>,
    }

    fn parse(args: &[&str]) -> Result<Settings, String> {
        use clap::Parser as _;
        Cli::try_parse_from(std::iter::once("hane").chain(args.iter().copied()))
            .map(|cli| cli.settings.settings)
            .map_err(|e| e.to_string())
    }

    #[test]
    fn every_setting_is_a_flag_with_its_default() {
        assert_eq!(parse(&[]).unwrap(), Settings::default());
        let help = <Cli as clap::CommandFactory>::command()
            .render_long_help()
            .to_string();
        for setting in SETTINGS {
            assert!(
                help.contains(&format!("--{}", setting.meta.key)),
                "{}",
                setting.meta.key
            );
        }
    }

    #[test]
    fn flags_set_and_check_values() {
        let s = parse(&[
            "-t",
            "2",
            "--playout",
            "light",
            "--rave",
            "1500",
            "--ponder",
            "--komi",
            "-3.5",
            "--tactics",
            "off",
            "--max-memory",
            "512M",
        ])
        .unwrap();
        assert_eq!(s.game.threads, Auto::Value(2));
        assert_eq!(s.search.playout.playout, PlayoutKind::Light);
        assert_eq!(s.search.rave, 1500.0);
        assert!(s.game.ponder && !s.search.playout.tactics);
        assert_eq!(s.game.komi, -3.5);
        assert_eq!(s.search.max_memory.0, 512 << 20);
        for bad in [
            &["--threads", "0"][..],
            &["--fill-board", "65"],
            &["--resign-threshold", "1"],
            &["--playout", "heavy"],
            &["--ladders", "maybe"],
            &["--komi", "nan"],
        ] {
            assert!(parse(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn auto_switches_take_auto_on_off_or_nothing() {
        assert_eq!(parse(&[]).unwrap().search.playout.race_ataris, Auto::Auto);
        for (args, want) in [
            (&["--race-ataris"][..], Auto::Value(true)),
            (&["--race-ataris", "off"], Auto::Value(false)),
            (&["--race-ataris", "auto"], Auto::Auto),
        ] {
            assert_eq!(
                parse(args).unwrap().search.playout.race_ataris,
                want,
                "{args:?}"
            );
        }
        assert!(parse(&["--race-ataris", "maybe"]).is_err());
        let help = <Cli as clap::CommandFactory>::command()
            .render_help()
            .to_string();
        assert!(help.contains("--race-ataris [<AUTO|ON|OFF>]"), "{help}");
        assert!(help.contains("--ponder [<ON|OFF>]"), "{help}");
    }
}
