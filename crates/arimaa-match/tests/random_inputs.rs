//! Deterministic random-input tests of the match settings a user types or a
//! file holds: time controls, engine specs, SPRT settings, setup files and
//! record files. Each parser must return an error with a message, never panic.

use arimaa_core::rng::XorShift;
use arimaa_match::config::EngineSpec;
use arimaa_match::record::read_records;
use arimaa_match::setups::SetupBook;
use arimaa_match::stats::Sprt;
use arimaa_match::tc::TimeControl;

const ALPHABET: &[u8] = b"0123456789.smht/:=-+ abcdefgh12345678RCDHMErcdhme[]\"'\\\n#xyz\xc3\xa9";

/// The workspace's deterministic generator, with the text helpers below.
struct Rng(XorShift);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0.below(n)
    }

    fn text(&mut self, max: usize) -> String {
        let len = self.below(max + 1);
        let bytes: Vec<u8> = (0..len).map(|_| ALPHABET[self.below(ALPHABET.len())]).collect();
        String::from_utf8_lossy(&bytes).into_owned()
    }

    /// `valid` with one character replaced, or cut short.
    fn mutate(&mut self, valid: &str) -> String {
        let mut chars: Vec<char> = valid.chars().collect();
        let at = self.below(chars.len().max(1));
        if self.below(2) == 0 {
            chars.truncate(at);
        } else if at < chars.len() {
            chars[at] = ALPHABET[self.below(ALPHABET.len())] as char;
        }
        chars.into_iter().collect()
    }
}

fn check<T, E: std::fmt::Display>(r: Result<T, E>) -> bool {
    match r {
        Ok(_) => true,
        Err(e) => {
            assert!(!e.to_string().trim().is_empty(), "an error without a message");
            false
        }
    }
}

#[test]
fn time_controls_engine_specs_and_sprt_settings() {
    let mut rng = Rng(XorShift(0x1234_5678));
    let mut accepted = 0;
    for i in 0..30_000 {
        let tc = if i % 2 == 0 {
            rng.text(24)
        } else {
            rng.mutate("3s/30s/100/60s/2h/40t")
        };
        accepted += usize::from(check(tc.parse::<TimeControl>()));
        let words: Vec<String> = (0..rng.below(5)).map(|_| rng.text(16)).collect();
        let mut own = vec![rng.mutate("name=a"), rng.mutate("cmd=./engine --x 'y z'")];
        own.extend(words);
        let _ = check(EngineSpec::parse(&own, &[rng.mutate("option.hash=64")], None));
        let sprt: Vec<String> = (0..rng.below(5)).map(|_| rng.mutate("elo1=5")).collect();
        let _ = check(Sprt::parse(&sprt));
    }
    assert!(accepted > 1000, "mutations keep some time controls valid: {accepted}");
}

#[test]
fn setup_and_record_files() {
    let mut rng = Rng(XorShift(0x8765_4321));
    let setup = "Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Ha2 Db2 Cc2 Md2 Ee2 Cf2 Dg2 Hh2 \
                 ra8 rb8 rc8 rd8 re8 rf8 rg8 rh8 ha7 db7 cc7 md7 ee7 cf7 dg7 hh7";
    assert!(SetupBook::parse(setup, "valid").is_ok());
    let record = format!(
        "[Event \"x\"]\n[Gold \"a\"]\n[Silver \"b\"]\n[Result \"1-0\"]\n\n1g {}\n1s {}\n2g Ee2n Ee3n\n",
        &setup[..63],
        &setup[64..]
    );
    for i in 0..5_000 {
        let text = if i % 2 == 0 { rng.text(120) } else { rng.mutate(setup) };
        let _ = check(SetupBook::parse(&text, "random"));
        let text = if i % 2 == 0 { rng.text(200) } else { rng.mutate(&record) };
        let _ = check(read_records(&text));
    }
}
