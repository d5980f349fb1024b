//! Lines read one at a time (a server's requests) give the rows a whole
//! file gives, and say which lines were blank or bad, and where.

use rosenblatt_loader::ParseErrorKind;
use rosenblatt_loader::libsvm::{ParseOptions, Rows, parse};
use rosenblatt_loader::lines::{LineFormat, LineRead};
use rosenblatt_loader::vw::{Hashing, Labels};

fn read(format: &LineFormat, text: &str) -> (Rows, Vec<LineRead>) {
    let lines: Vec<&[u8]> = text.split('\n').map(str::as_bytes).collect();
    let (mut rows, mut out) = (Rows::empty(), Vec::new());
    format.read(&lines, &mut rows, &mut out);
    (rows, out)
}

#[test]
fn libsvm_lines_give_the_rows_of_the_whole_text() {
    let text = "1 1:0.5 3:2\n-1 2:1.25 # id 7\n+1 qid:3 4:1e-3 9:1\r\n0 5:-2";
    let opts = ParseOptions::default();
    let (rows, out) = read(&LineFormat::Libsvm(opts), text);
    assert_eq!(out, vec![LineRead::Row; 4]);
    assert_eq!(rows, parse(text.as_bytes(), &opts).unwrap());
}

#[test]
fn libsvm_blank_and_bad_lines_are_told_with_their_columns() {
    let opts = ParseOptions { unlabeled_rows: true, ..Default::default() };
    let (rows, out) = read(&LineFormat::Libsvm(opts), "1 1:1\n\n   # just a comment\n1 2:x\n3:1 7:2\n1 4:1 2:1");
    assert_eq!(out[..3], [LineRead::Row, LineRead::Blank, LineRead::Blank]);
    assert!(matches!(out[3], LineRead::Bad(ParseErrorKind::BadValue, 5)), "{:?}", out[3]);
    assert_eq!(out[4], LineRead::Row, "a row without a label, read for prediction");
    assert!(matches!(out[5], LineRead::Bad(ParseErrorKind::UnsortedIndex { .. }, 7)), "{:?}", out[5]);
    // Only the good lines' rows, the unlabeled one with the stand-in +1.
    assert_eq!(rows.labels, [1.0, 1.0]);
    assert_eq!((rows.offsets.as_slice(), rows.indices.as_slice()), (&[0u64, 1, 3][..], &[0u32, 2, 6][..]));
}

#[test]
fn a_row_without_a_label_is_an_error_unless_asked_for() {
    let (_, out) = read(&LineFormat::Libsvm(ParseOptions::default()), "3:1");
    assert_eq!(out, [LineRead::Bad(ParseErrorKind::MissingLabel, 1)]);
}

#[test]
fn vw_lines_give_the_rows_of_the_whole_text() {
    let h = Hashing { quadratic: vec!["ab".into()], ..Hashing::default() };
    let c = h.compile().unwrap();
    let text = "1 'first|a x y:2 |b z\n-1 |a 12 q\n|b w:0.5\n0 2|a x";
    let (rows, out) = read(&LineFormat::Vw(Box::new(c.clone()), Labels::Optional), text);
    assert_eq!(out, vec![LineRead::Row; 4]);
    let (whole, _) = rosenblatt_loader::vw::parse(text.as_bytes(), &c, Labels::Optional).unwrap();
    assert_eq!(rows, whole);
}

#[test]
fn vw_blank_and_bad_lines_are_told_with_their_columns() {
    let c = Hashing::default().compile().unwrap();
    let (rows, out) = read(&LineFormat::Vw(Box::new(c), Labels::Optional), "1 |a x\n  \t\n1 |a:zz x\n2 |a x");
    assert_eq!(out[..2], [LineRead::Row, LineRead::Blank]);
    assert!(matches!(out[2], LineRead::Bad(ParseErrorKind::BadValue, 6)), "{:?}", out[2]);
    assert!(matches!(out[3], LineRead::Bad(ParseErrorKind::VwBinaryLabel(_), 1)), "{:?}", out[3]);
    assert_eq!(rows.len(), 1);
}
