//! `rosenblatt export`: a dataset's rows back as LIBSVM text.

use crate::ui::Ui;
use anyhow::bail;
use rosenblatt::loader::fs::AtomicFile;
use std::path::Path;

pub fn run(dir: &Path, output: Option<&Path>, zero_based: bool, ui: Ui) -> anyhow::Result<()> {
    if ui.json && output.is_none() {
        bail!("export writes LIBSVM text to standard output; with --json give -o FILE and the summary goes to stdout");
    }
    let ds = crate::ui::open_dataset(dir)?;
    if ds.manifest().has_weights {
        bail!(
            "{}: its rows carry importance weights, which LIBSVM text cannot hold; \
             train on the dataset itself, or convert the text it came from",
            dir.display()
        );
    }
    output.map(crate::ui::output_file).transpose()?;
    let base = u8::from(!zero_based);
    match output {
        Some(path) => {
            let mut file = AtomicFile::create(path)?;
            ds.write_libsvm(base, &mut file)
                .map_err(|source| rosenblatt::loader::LoadError::Io { path: path.to_path_buf(), source })?;
            file.commit()?;
            if ui.json {
                let bytes = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
                let v = serde_json::json!({ "dataset": dir, "output": path, "rows": ds.rows(), "bytes": bytes, "index_base": base });
                crate::ui::json(&v)?;
            }
        }
        None => {
            // Shard by shard through a buffer; a reader that goes away
            // (`| head`) ends the export quietly.
            struct Stdout(Vec<u8>);
            impl std::io::Write for Stdout {
                fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
                    self.0.extend_from_slice(b);
                    if self.0.len() >= 1 << 20 {
                        self.flush()?;
                    }
                    Ok(b.len())
                }
                fn flush(&mut self) -> std::io::Result<()> {
                    crate::ui::write_stdout(&self.0)?;
                    self.0.clear();
                    Ok(())
                }
            }
            let mut out = Stdout(Vec::with_capacity(1 << 20));
            ds.write_libsvm(base, &mut out)?;
            std::io::Write::flush(&mut out)?;
        }
    }
    Ok(())
}
