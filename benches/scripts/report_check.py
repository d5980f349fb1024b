#!/usr/bin/env python3
"""Looks at a `rosenblatt report` directory as a person would: renders
every SVG and the index in headless Chromium and checks the pixels.

- nothing is blank: each picture has ink on its white background;
- nothing is cut off: the outermost rows and columns of each SVG are
  background (a label or panel running past the edge would touch them);
- every line of a chart shows: each series' colour (the palette, in
  legend order) covers some pixels inside the plot's frame (its legend
  entry alone does not count: a line drawn under another must show);
- a weight image shows both signs: red and blue cells.

usage: python3 benches/scripts/report_check.py REPORT_DIR [--keep PNG_DIR]

Without Chromium, the SVGs alone are drawn by rsvg-convert (librsvg) when
it is there. Exits 0 with a message when neither is (CI may skip it), 1
when a check fails. Standard library only: PNGs are decoded here.
"""

import argparse
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

PALETTE = ["#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"]


def chromium():
    for name in ["chromium", "chromium-browser", "google-chrome"]:
        path = shutil.which(name)
        if path:
            return path
    return None


def screenshot(browser, url, width, height, out):
    if os.path.basename(browser) == "rsvg-convert":
        subprocess.run(
            [browser, "-w", str(width), "-h", str(height), "-o", out, url.removeprefix("file://")],
            check=True, timeout=120,
        )
        return
    subprocess.run(
        [browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
         f"--window-size={width},{height}", f"--screenshot={out}", url],
        check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120,
    )


def decode_png(path):
    """(width, height, rows of (r, g, b) tuples) of an 8-bit RGB or RGBA PNG."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path}: not a PNG"
    pos, idat, ihdr = 8, b"", None
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour = ihdr[0], ihdr[1], ihdr[2], ihdr[3]
    assert depth == 8 and colour in (2, 6), f"{path}: PNG colour type {colour}, depth {depth}"
    bpp = 3 if colour == 2 else 4
    raw, stride = zlib.decompress(idat), width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[x * bpp : x * bpp + 3]) for x in range(width)])
        prev = line
    return width, height, rows


def near(p, hex_colour, tol=40):
    q = tuple(int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))
    return all(abs(a - b) <= tol for a, b in zip(p, q))


def check(report, browser, keep):
    failures = []
    names = sorted(n for n in os.listdir(report) if n.endswith(".svg"))
    if not names:
        return [f"{report}: no SVG files"]
    # rsvg-convert (librsvg) draws SVG only: without Chromium the index
    # page is not looked at.
    pages = names if os.path.basename(browser) == "rsvg-convert" else names + ["index.html"]
    for name in pages:
        path = os.path.abspath(os.path.join(report, name))
        if name.endswith(".svg"):
            head = open(path, encoding="utf-8").read(400)
            width = int(float(re.search(r'width="([\d.]+)"', head).group(1)))
            height = int(float(re.search(r'height="([\d.]+)"', head).group(1)))
        else:
            width, height = 1000, 1600
        png = os.path.join(keep, name + ".png")
        screenshot(browser, "file://" + path, width, height, png)
        w, h, rows = decode_png(png)
        pixels = [p for row in rows for p in row]
        ink = sum(1 for p in pixels if min(p) < 235) / len(pixels)
        if ink < 0.01:
            failures.append(f"{name}: looks blank ({ink:.2%} of the pixels are not white)")
        if name.endswith(".svg"):
            edge = rows[0][:] + rows[-1][:] + [r[0] for r in rows] + [r[-1] for r in rows]
            touched = sum(1 for p in edge if min(p) < 200)
            if touched:
                failures.append(f"{name}: {touched} dark pixels on the outer edge (something is cut off)")
            svg = open(path, encoding="utf-8").read()
            # A series counts as visible where it shows inside the plot's
            # frame: its legend entry below the frame does not count (a line
            # drawn entirely under another kept its legend entry).
            frame = re.search(r'<rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)" fill="none"', svg)
            inside = pixels
            if frame:
                x, y, fw, fh = (int(float(v)) for v in frame.groups())
                inside = [p for row in rows[y + 1 : y + fh - 1] for p in row[x + 1 : x + fw - 1]]
            lines = re.findall(r'<polyline class="series" points="([^"]*)"', svg)
            for k, points in enumerate(lines):
                colour = PALETTE[k % len(PALETTE)]
                shown = sum(1 for p in inside if near(p, colour, tol=30))
                # A line 2 pixels wide covers about twice its length; one
                # mostly drawn over by another shows a sliver of that.
                xy = [tuple(map(float, q.split(","))) for q in points.split()]
                length = sum(((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5 for a, b in zip(xy, xy[1:]))
                if shown < max(20, 0.25 * 2 * length):
                    failures.append(
                        f"{name}: series {k} ({colour}) is hidden: {shown} of its pixels show in the plot, "
                        f"for a line {length:.0f} pixels long"
                    )
            if 'class="px"' in svg:
                red = sum(1 for p in pixels if p[0] > p[2] + 60)
                blue = sum(1 for p in pixels if p[2] > p[0] + 60)
                if red < 50 or blue < 50:
                    failures.append(f"{name}: weight image shows {red} red and {blue} blue pixels")
        print(f"{name}: {w}×{h}, {ink:.1%} ink", flush=True)
    return failures


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("report")
    ap.add_argument("--keep", help="keep the screenshots in this folder")
    a = ap.parse_args()
    browser = chromium() or shutil.which("rsvg-convert")
    if browser is None:
        print("report_check: skipped, neither Chromium nor rsvg-convert found (apt-get install chromium)")
        return 0
    keep = a.keep or tempfile.mkdtemp()
    os.makedirs(keep, exist_ok=True)
    failures = check(a.report, browser, keep)
    for f in failures:
        print("FAIL:", f)
    if not a.keep:
        shutil.rmtree(keep, ignore_errors=True)
    print("report_check:", "failed" if failures else "every picture looks right")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
