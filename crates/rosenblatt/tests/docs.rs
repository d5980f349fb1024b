//! The documents a newcomer reads say what the code does.

/// The README's list of learners is the registry's own description.
#[test]
fn the_readme_lists_every_learner_as_the_registry_describes_it() {
    let readme = include_str!("../../../README.md");
    let out =
        std::process::Command::new(env!("CARGO_BIN_EXE_rosenblatt")).args(["learners", "--markdown"]).output().unwrap();
    assert!(out.status.success());
    let list = String::from_utf8(out.stdout).unwrap();
    assert!(readme.contains(&list), "the README's learner list differs from the registry's; it should read:\n{list}");
}

/// Every learner of the table is reachable from the command line — by
/// `learners --json`, as a `--learner` value — and from the library by
/// name, with the same hyper-parameters.
#[test]
fn every_learner_is_offered_by_every_front_end() {
    use rosenblatt::learners::Learner;
    let out =
        std::process::Command::new(env!("CARGO_BIN_EXE_rosenblatt")).args(["learners", "--json"]).output().unwrap();
    let listed: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let names: Vec<&str> = listed.as_array().unwrap().iter().map(|l| l["name"].as_str().unwrap()).collect();
    assert_eq!(names, Learner::ALL.map(Learner::name));
    let help = std::process::Command::new(env!("CARGO_BIN_EXE_rosenblatt")).args(["train", "--help"]).output().unwrap();
    let help = String::from_utf8(help.stdout).unwrap();
    for (l, entry) in Learner::ALL.into_iter().zip(listed.as_array().unwrap()) {
        assert!(help.contains(&format!("- {}:", l.name())), "{l} is no --learner value");
        assert!(rosenblatt::Config::from_name(l.name()).is_ok(), "{l}");
        let params: Vec<&str> =
            entry["params"].as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap()).collect();
        assert_eq!(params, l.params().iter().map(|p| p.0.name()).collect::<Vec<_>>(), "{l}");
        for p in &params {
            assert!(help.contains(&format!("--{p} ")), "--{p} is not a flag of train");
        }
    }
}
