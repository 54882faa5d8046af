//! `--engine` given once per engine, each with its own words: what
//! `arimaa match` and `arimaa movetest` take.

use clap::{Arg, ArgAction, ArgMatches, Args, Command, FromArgMatches};

/// The `--engine` occurrences, each kept as its own list of words. (clap's
/// derive flattens repeated multi-value options, so this one is built by hand.)
#[derive(Debug, Clone, Default)]
pub struct EngineGroups(pub Vec<Vec<String>>);

impl FromArgMatches for EngineGroups {
    fn from_arg_matches(m: &ArgMatches) -> Result<Self, clap::Error> {
        let groups = m
            .get_occurrences::<String>("engine")
            .map(|occ| occ.map(|words| words.cloned().collect()).collect())
            .unwrap_or_default();
        Ok(EngineGroups(groups))
    }

    fn update_from_arg_matches(&mut self, m: &ArgMatches) -> Result<(), clap::Error> {
        *self = EngineGroups::from_arg_matches(m)?;
        Ok(())
    }
}

impl Args for EngineGroups {
    fn augment_args(cmd: Command) -> Command {
        cmd.arg(
            Arg::new("engine")
                .long("engine")
                .value_name("KEY=VALUE")
                .num_args(1..)
                .action(ArgAction::Append)
                .required(true)
                .help(
                    "An engine: name=NAME cmd=COMMAND [dir=DIR] [tc=TC | depth=N] [option.NAME=VALUE ...]. \
                     Give it once per engine",
                ),
        )
    }

    fn augment_args_for_update(cmd: Command) -> Command {
        EngineGroups::augment_args(cmd)
    }
}
