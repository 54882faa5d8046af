//! Where a match's pairs are played: `--cluster local` (the default) or
//! `--cluster ray[...]`, parsed once into a typed value.

use crate::error::MatchError;
use crate::executor::{Executor, LocalExecutor};
use crate::ray::RayExecutor;
use std::fmt;
use std::str::FromStr;

/// The `--cluster` setting.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum Cluster {
    /// Threads of this process.
    #[default]
    Local,
    /// A Ray cluster.
    Ray(RayAddress),
}

/// Which Ray cluster.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RayAddress {
    /// `ray`: Ray's own choice: `RAY_ADDRESS`, else the cluster started on
    /// this machine with `ray start`, else a new one in the bridge.
    Default,
    /// `ray:local`: always a new private Ray instance inside the bridge,
    /// stopped with it (trying it out, tests).
    Local,
    /// `ray:HOST:PORT`: the head's address, as `ray start --address` takes it.
    Head(String),
    /// `ray://HOST:PORT`: a Ray Client server (port 10001 on the head).
    Client(String),
}

const FORMS: &str = "local, ray, ray:local, ray:HOST:PORT or ray://HOST:PORT";

fn host_port(text: &str, whole: &str) -> Result<String, MatchError> {
    let bad = || MatchError::Config(format!("--cluster '{whole}': expected HOST:PORT after 'ray' ({FORMS})"));
    let (host, port) = text.rsplit_once(':').ok_or_else(bad)?;
    let port_ok = port.parse::<u16>().is_ok_and(|p| p > 0);
    let host_ok = !host.is_empty() && !host.contains(|c: char| c.is_whitespace() || c == '/');
    if host_ok && port_ok {
        Ok(text.to_string())
    } else {
        Err(bad())
    }
}

impl Cluster {
    /// The executor that plays pairs here: threads of this process, or a
    /// Ray bridge started now.
    pub fn executor(&self) -> Result<Box<dyn Executor>, MatchError> {
        Ok(match self {
            Cluster::Local => Box::new(LocalExecutor::default()),
            Cluster::Ray(address) => Box::new(RayExecutor::start(address)?),
        })
    }
}

impl FromStr for Cluster {
    type Err = MatchError;

    fn from_str(s: &str) -> Result<Self, MatchError> {
        let t = s.trim();
        if t == "local" {
            return Ok(Cluster::Local);
        }
        if t == "ray" {
            return Ok(Cluster::Ray(RayAddress::Default));
        }
        if let Some(rest) = t.strip_prefix("ray://") {
            host_port(rest, s)?;
            return Ok(Cluster::Ray(RayAddress::Client(t.to_string())));
        }
        match t.strip_prefix("ray:") {
            Some("local") => Ok(Cluster::Ray(RayAddress::Local)),
            Some(rest) => Ok(Cluster::Ray(RayAddress::Head(host_port(rest, s)?))),
            None => Err(MatchError::Config(format!("--cluster '{s}': expected {FORMS}"))),
        }
    }
}

impl fmt::Display for Cluster {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Cluster::Local => f.write_str("local"),
            Cluster::Ray(RayAddress::Default) => f.write_str("ray"),
            Cluster::Ray(RayAddress::Local) => f.write_str("ray:local"),
            Cluster::Ray(RayAddress::Head(a)) => write!(f, "ray:{a}"),
            Cluster::Ray(RayAddress::Client(a)) => f.write_str(a),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_form_parses_and_prints_back() {
        for text in ["local", "ray", "ray:local", "ray:10.0.0.5:6379", "ray://head.lan:10001"] {
            let c: Cluster = text.parse().unwrap();
            assert_eq!(c.to_string(), text);
        }
        assert_eq!(
            "ray:127.0.0.1:6379".parse(),
            Ok(Cluster::Ray(RayAddress::Head("127.0.0.1:6379".into())))
        );
    }

    #[test]
    fn bad_forms_say_what_is_expected() {
        for bad in [
            "",
            "rya",
            "ray:",
            "ray:host",
            "ray:host:0",
            "ray:host:99999",
            "ray://",
            "ray://:1",
            "ray:a b:1",
        ] {
            let e = bad.parse::<Cluster>().unwrap_err();
            assert!(e.to_string().contains("expected"), "{bad}: {e}");
        }
    }
}
