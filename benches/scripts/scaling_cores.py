"""Scaling over many cores: convert's parser threads, train's
threads at a fixed --parts (models must be byte-identical), the LIBSVM
parse alone (when PARSE_BENCH names the executable that
`cargo bench --bench parse --no-run` builds), and single-core MNIST
figures. Writes everything it prints to $OUT/scale.txt too."""
import hashlib, json, os, statistics, subprocess, sys, time

B = os.path.abspath(os.environ.get("BINARY", "target/release/rosenblatt"))
W = os.environ.get("WORK", "/tmp/scaling")
OUT = os.environ.get("OUT", "/tmp")
ROWS = int(os.environ.get("ROWS", "1000000"))
THREADS = [1, 2, 4, 8, 16]
REPS = int(os.environ.get("REPS", "3"))
log = open(os.path.join(OUT, "scale.txt"), "w")


def say(*a):
    s = " ".join(str(x) for x in a)
    print(s, flush=True)
    log.write(s + "\n")
    log.flush()


def run(*args, capture=True):
    t = time.perf_counter()
    p = subprocess.run([B, *args], capture_output=capture, text=True)
    dt = time.perf_counter() - t
    if p.returncode != 0:
        say("FAILED", args, p.stderr[-2000:] if p.stderr else "")
        sys.exit(1)
    return dt, p.stdout


def sha(path):
    return hashlib.sha256(open(path, "rb").read()).hexdigest()[:16]


os.makedirs(W, exist_ok=True)
say("== machine")
say(subprocess.run("nproc; lscpu | grep -E 'Model name|L2|L3|NUMA node'", shell=True, capture_output=True, text=True).stdout)
flags = open("/proc/cpuinfo").read().split("flags")[1].split("\n")[0].split()
say("avx512f" in flags, "avx2" in flags)

# MNIST, single core.
m = "datasets/mnist"
run("convert", f"{m}/train-images.idx3-ubyte.gz", f"{m}/train-labels.idx1-ubyte.gz", "--target", "9", "-o", f"{W}/m9", "--quiet")
_, o = run("bench", "read", f"{W}/m9", "--json")
say("mnist read-only pass ms", json.loads(o)["seconds"] * 1e3)
for order in ["sequential", "chunks"]:
    for learner in ["perceptron", "averaged-perceptron"]:
        _, o = run("train", f"{W}/m9", "--learner", learner, "--order", order, "--threads", "1", "--passes", "11", "--json", "--quiet", "-o", f"{W}/m.model")
        ps = [p["seconds"] for p in json.loads(o)["passes"][1:]]
        say(f"mnist {learner} {order} median ms of passes 2-11", round(statistics.median(ps) * 1e3, 3))

# The sparse set as LIBSVM text.
t, _ = run("datasets", "sparse", "-o", f"{W}/sp", "--rows", str(ROWS), "--test-rows", "10000", "--quiet")
say("generate s", round(t, 2))
with open(f"{W}/sp.svm", "w") as f:
    subprocess.run([B, "export", f"{W}/sp/train"], stdout=f, check=True)
size = os.path.getsize(f"{W}/sp.svm")
say("text bytes", size)
_, o = run("bench", "read", f"{W}/sp/train", "--json")
say("sparse read-only pass ms", json.loads(o)["seconds"] * 1e3)

say("== convert: threads, median of", REPS, "wall s, MB/s, shard checksum")
base = None
for th in THREADS:
    ts = []
    for _ in range(REPS):
        subprocess.run(["rm", "-rf", f"{W}/c"])
        dt, _ = run("convert", f"{W}/sp.svm", "-o", f"{W}/c", "--threads", str(th), "--quiet")
        ts.append(dt)
    med = statistics.median(ts)
    base = base or med
    digest = sha(f"{W}/c/shard-00000.rbs")
    say(f"convert threads={th:2d} median {med:.3f} s  {size / med / 1e6:.0f} MB/s  speed-up {base / med:.2f}x  runs {[round(x, 3) for x in ts]}  shard0 {digest}")

say("== train --parts 16: threads, median of passes 2-4, model sha")
for learner in ["perceptron", "logistic"]:
    base = None
    for th in THREADS:
        _, o = run("train", f"{W}/sp/train", "--learner", learner, "--parts", "16", "--threads", str(th), "--passes", "4", "--json", "--quiet", "-o", f"{W}/p{th}.model")
        ps = [p["seconds"] for p in json.loads(o)["passes"][1:]]
        med = statistics.median(ps)
        base = base or med
        say(f"{learner} parts=16 threads={th:2d} pass {med * 1e3:.1f} ms  speed-up {base / med:.2f}x  model {sha(f'{W}/p{th}.model')}")
    _, o = run("train", f"{W}/sp/train", "--learner", learner, "--threads", "1", "--passes", "4", "--json", "--quiet", "-o", f"{W}/seq.model")
    ps = [p["seconds"] for p in json.loads(o)["passes"][1:]]
    say(f"{learner} parts=1 threads=1 pass {statistics.median(ps) * 1e3:.1f} ms")

if os.environ.get("PARSE_BENCH"):
    say("== LIBSVM parse alone (criterion; PARSE_MB of text, 512 by default): time and throughput intervals")
    env = dict(os.environ, ROSENBLATT_PARSE_MB=os.environ.get("PARSE_MB", "512"), ROSENBLATT_PARSE_THREADS=",".join(map(str, THREADS)))
    o = subprocess.run([os.environ["PARSE_BENCH"], "--bench", "--noplot"], env=env, capture_output=True, text=True).stdout
    for line in o.splitlines():
        if line.startswith("parse") or "time:" in line or "thrpt:" in line:
            say(line)
say("done")
