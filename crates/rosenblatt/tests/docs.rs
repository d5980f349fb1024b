//! The documents a newcomer reads say what the code does.

/// The README's list of learners is the registry's own description.
#[test]
fn the_readme_lists_every_learner_as_the_registry_describes_it() {
    let readme = include_str!("../../../README.md");
    let list = rosenblatt::learners::registry::describe_all();
    assert!(readme.contains(&list), "the README's learner list differs from the registry's; it should read:\n{list}");
}
