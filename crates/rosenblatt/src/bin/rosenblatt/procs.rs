//! Running as one of several processes started by an MPI launcher
//! (`mpirun -np N rosenblatt train …`): `train` trains across them; every
//! other command runs on rank 0 alone. Without the `mpi` feature, a
//! launch as several processes is refused rather than run N times over.

use rosenblatt::learners::{LearnError, Team};

/// The processes this one runs among.
pub struct Procs {
    rank: usize,
    #[cfg(feature = "mpi")]
    mpi: Option<rosenblatt::cluster::Mpi>,
}

impl Procs {
    /// Starts MPI when launched as one of several processes.
    pub fn start() -> Result<Procs, (usize, String)> {
        let Some((rank, size)) = rosenblatt::cluster::launched() else {
            return Ok(Procs {
                rank: 0,
                #[cfg(feature = "mpi")]
                mpi: None,
            });
        };
        #[cfg(feature = "mpi")]
        {
            let mpi = rosenblatt::cluster::Mpi::start()
                .ok_or((rank, format!("started as process {rank} of {size}, but MPI did not initialise")))?;
            Ok(Procs { rank: mpi.rank(), mpi: Some(mpi) })
        }
        #[cfg(not(feature = "mpi"))]
        Err((
            rank,
            format!(
                "started as process {rank} of {size} by an MPI launcher, but this rosenblatt was built without MPI \
                 (cargo build --release --features mpi; docs/distributed.md)"
            ),
        ))
    }

    /// The team, when there are several processes.
    pub fn team(&self) -> Option<&dyn Team> {
        #[cfg(feature = "mpi")]
        if let Some(m) = &self.mpi {
            return Some(m);
        }
        None
    }

    /// This process's rank (0 alone).
    pub fn rank(&self) -> usize {
        self.rank
    }

    /// Seconds spent exchanging with the other processes (and waiting).
    pub fn seconds(&self) -> f64 {
        #[cfg(feature = "mpi")]
        if let Some(m) = &self.mpi {
            return m.seconds();
        }
        0.0
    }

    /// Ends the process after `e` (printed as `line`): a failure every
    /// process reports alike is printed once, by rank 0, and MPI ends
    /// cleanly; any other ends the whole job, naming this process.
    pub fn fail(self, e: &anyhow::Error, line: &str) -> ! {
        if self.team().is_none() {
            eprintln!("error: {line}");
            std::process::exit(1);
        }
        let alike = e.chain().any(|c| {
            matches!(
                c.downcast_ref::<rosenblatt::Error>(),
                Some(
                    rosenblatt::Error::Processes(_)
                        | rosenblatt::Error::Learn(
                            LearnError::Process { .. } | LearnError::Processes { .. } | LearnError::Rows { .. }
                        )
                )
            ) || matches!(
                c.downcast_ref::<LearnError>(),
                Some(LearnError::Process { .. } | LearnError::Processes { .. } | LearnError::Rows { .. })
            )
        });
        if alike {
            if self.rank == 0 {
                eprintln!("error: {line}");
            }
            // MPI finalised before the exit, which runs no destructors.
            #[cfg(feature = "mpi")]
            drop(self.mpi);
            std::process::exit(1);
        }
        eprintln!("error: rank {}: {line}", self.rank);
        #[cfg(feature = "mpi")]
        if let Some(m) = &self.mpi {
            m.abort(1);
        }
        std::process::exit(1);
    }
}
