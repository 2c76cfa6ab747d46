#!/usr/bin/python3
"""Demosaic accuracy on real photographs (a measuring tool, not a CI test).

Each photograph is mosaiced (RGGB, red at (0, 0), its 8-bit sRGB values
taken as they are), demosaiced again by texelconvert (CPU path), OpenCV and
GStreamer's bayer2rgb, and compared with the original: PSNR per channel and
CPSNR, over the whole frame and over the interior (a 2-pixel border left
out). The results are in docs/accuracy.md ("Demosaic on real photographs").

Photographs come from Debian packages, never from the repository:
  * /usr/share/matplotlib/mpl-data/sample_data/grace_hopper.jpg
    (python-matplotlib-data; US Navy photograph, public domain);
  * skimage/data/{astronaut,chelsea,coffee,rocket} of python3-skimage
    (licences as skimage.data's docstrings state them: astronaut NASA, public
    domain; chelsea and coffee CC0 by their photographers; rocket SpaceX,
    released into the public domain. Debian's copyright file lists the whole
    package as BSD-3-Clause and names no image separately).
Missing ones are skipped.

Needs (not CI's): python3-numpy python3-pil python3-opencv python3-skimage,
gst-plugins-bad's bayer2rgb; scripts/install-measure-deps.sh
installs them. Run from the repository root after building the plugin:

    /usr/bin/python3 scripts/demosaic-psnr.py [--build build] [--images docs]

OpenCV's Bayer codes are named after the second row's second and third
samples (OpenCV's imgproc docs, "Bayer -> RGB"): GStreamer's rggb (row 0
R G, row 1 G B) is OpenCV's BayerBG, which OpenCV 4.6 also calls BayerRGGB
(the same constant). --codes prints all four to show it.
"""

import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np
from PIL import Image, ImageDraw

try:
    import cv2
except ImportError:
    cv2 = None

PHOTOS = [
    ("grace_hopper", "/usr/share/matplotlib/mpl-data/sample_data/grace_hopper.jpg"),
    ("astronaut", "/usr/lib/python3/dist-packages/skimage/data/astronaut.png"),
    ("chelsea", "/usr/lib/python3/dist-packages/skimage/data/chelsea.png"),
    ("coffee", "/usr/lib/python3/dist-packages/skimage/data/coffee.png"),
    ("rocket", "/usr/lib/python3/dist-packages/skimage/data/rocket.jpg"),
]
BORDER = 2


def load(path):
    """The photo as uint8 RGB, cropped to a width multiple of 4 (GStreamer's
    8-bit Bayer rows are padded to 4 bytes; a multiple of 4 has no padding,
    so the mosaic is one plain array) and an even height (whole 2x2 cells)."""
    rgb = np.asarray(Image.open(path).convert("RGB"))
    h, w = rgb.shape[:2]
    return np.ascontiguousarray(rgb[: h & ~1, : w & ~3])


def mosaic_rggb(rgb):
    m = np.empty(rgb.shape[:2], np.uint8)
    m[0::2, 0::2] = rgb[0::2, 0::2, 0]
    m[0::2, 1::2] = rgb[0::2, 1::2, 1]
    m[1::2, 0::2] = rgb[1::2, 0::2, 1]
    m[1::2, 1::2] = rgb[1::2, 1::2, 2]
    return m


def gst_develop(mosaic, element, out_format, env_extra, tmp):
    """Runs mosaic through `element` with gst-launch-1.0; returns RGB.

    filesrc's segment is in bytes: texelconvert, like GStreamer's
    videobalance and gamma, asks it for a stream time in TIME format to
    drive its controllable properties, which prints a harmless
    "gst_segment_to_stream_time: assertion" critical per run."""
    h, w = mosaic.shape
    src = os.path.join(tmp, "mosaic.raw")
    dst = os.path.join(tmp, "out.raw")
    mosaic.tofile(src)
    if os.path.exists(dst):
        os.remove(dst)
    cmd = (
        ["gst-launch-1.0", "-q", "filesrc", "location=" + src,
         "blocksize=%d" % (w * h), "!",
         "video/x-bayer,format=rggb,width=%d,height=%d,framerate=0/1" % (w, h),
         "!"]
        + element
        + ["!", "video/x-raw,format=%s" % out_format, "!",
           "filesink", "location=" + dst]
    )
    env = dict(os.environ, **env_extra)
    subprocess.run(cmd, check=True, env=env)
    bpp = 3 if out_format == "RGB" else 4
    out = np.fromfile(dst, np.uint8)
    if out.size != w * h * bpp:
        sys.exit("%s: %d bytes, expected %d" % (" ".join(element), out.size, w * h * bpp))
    return out.reshape(h, w, bpp)[:, :, :3]


def psnr(mse):
    return float("inf") if mse == 0 else 10 * np.log10(255.0**2 / mse)


def scores(orig, out, border=0):
    """PSNR of R, G, B and CPSNR (the MSE of all three channels together)."""
    if border:
        orig = orig[border:-border, border:-border]
        out = out[border:-border, border:-border]
    d = orig.astype(np.float64) - out.astype(np.float64)
    mse = (d * d).reshape(-1, 3).mean(axis=0)
    return [psnr(m) for m in mse] + [psnr(mse.mean())]


def sampled_mismatches(orig, out):
    """Samples the mosaic holds must come back unchanged: a count of those
    that do not (a shifted or mislabelled pattern shows up here first)."""
    return int(np.count_nonzero(mosaic_rggb(out) != mosaic_rggb(orig)))


def best_shift(orig, out):
    """(dx, dy) that gives the best interior CPSNR when output pixel
    (x + dx, y + dy) is compared with original pixel (x, y), |dx|, |dy| <= 2:
    (0, 0) unless the output is displaced."""
    h, w = orig.shape[:2]
    b = BORDER + 2
    best = None
    for dy in range(-2, 3):
        for dx in range(-2, 3):
            o = orig[b : h - b, b : w - b]
            s = out[b + dy : h - b + dy, b + dx : w - b + dx]
            c = scores(o, s)[3]
            if best is None or c > best[0]:
                best = (c, dx, dy)
    return best[1], best[2]


def methods(build):
    plugin = {"GST_PLUGIN_PATH": os.path.join(build, "plugin")}
    ref = dict(plugin, GST_TEXEL_CPU="reference")
    tc = ["texelconvert", "raw-transfer=linear"]
    m = [
        ("texelconvert mhc", lambda mo, t: gst_develop(mo, tc + ["demosaic=mhc"], "RGB", plugin, t)),
        ("texelconvert mhc (reference)", lambda mo, t: gst_develop(mo, tc + ["demosaic=mhc"], "RGB", ref, t)),
        ("texelconvert bilinear", lambda mo, t: gst_develop(mo, tc + ["demosaic=bilinear"], "RGB", plugin, t)),
        ("texelconvert bilinear (reference)", lambda mo, t: gst_develop(mo, tc + ["demosaic=bilinear"], "RGB", ref, t)),
        ("bayer2rgb", lambda mo, t: gst_develop(mo, ["bayer2rgb"], "RGBA", {}, t)),
    ]
    if cv2 is not None:
        for name, code in (
            ("OpenCV bilinear", cv2.COLOR_BayerBG2RGB),
            ("OpenCV VNG", cv2.COLOR_BayerBG2RGB_VNG),
            ("OpenCV EA", cv2.COLOR_BayerBG2RGB_EA),
        ):
            m.append((name, lambda mo, t, c=code: cv2.cvtColor(mo, c)))
        # OpenCV's VNG writes its rows 2 too high (opencv#5089, #27225; fixed
        # by opencv#27226 in 2025, after Debian 12's 4.6): moved back down,
        # the first 2 rows are the last 2 wrapped round (only the interior
        # counts).
        m.append(("OpenCV VNG, rows moved down 2", lambda mo, t: np.roll(
            cv2.cvtColor(mo, cv2.COLOR_BayerBG2RGB_VNG), 2, axis=0)))
    return m


def fmt(v):
    return "inf" if v == float("inf") else "%.2f" % v


def print_codes(name, rgb):
    """Each OpenCV code on the RGGB mosaic: only BayerBG gives the photo back."""
    mo = mosaic_rggb(rgb)
    print("\nOpenCV codes on %s's RGGB mosaic (CPSNR, interior):" % name)
    for code in ("BG", "GB", "RG", "GR"):
        out = cv2.cvtColor(mo, getattr(cv2, "COLOR_Bayer%s2RGB" % code))
        print("  COLOR_Bayer%s2RGB: %s dB" % (code, fmt(scores(rgb, out, BORDER)[3])))


def zoom(img, x, y, size, scale):
    crop = Image.fromarray(np.ascontiguousarray(img[y : y + size, x : x + size]))
    return crop.resize((size * scale, size * scale), Image.NEAREST)


def write_crops(rgb, outs, where, dest, size=64, scale=4):
    """Side by side: original and each method, a size x size crop scaled
    `scale` times with nearest neighbour, labelled underneath."""
    names = ["original"] + [n for n, _ in outs]
    imgs = [rgb] + [o for _, o in outs]
    for i, (x, y) in enumerate(where):
        side = size * scale
        sheet = Image.new("RGB", (len(imgs) * (side + 4) - 4, side + 14), "white")
        draw = ImageDraw.Draw(sheet)
        for k, (n, im) in enumerate(zip(names, imgs)):
            sheet.paste(zoom(im, x, y, size, scale), (k * (side + 4), 0))
            draw.text((k * (side + 4) + 2, side + 2), n, fill="black")
        path = os.path.join(dest, "demosaic-edge-%d.png" % (i + 1))
        sheet.save(path, optimize=True)
        print("wrote %s (%d bytes; crop at x=%d y=%d, %dx%d, x%d nearest)"
              % (path, os.path.getsize(path), x, y, size, size, scale))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default="build", help="meson build directory")
    ap.add_argument("--images", help="write the edge crops of grace_hopper into this folder")
    ap.add_argument("--codes", action="store_true", help="also print every OpenCV Bayer code's CPSNR")
    ap.add_argument("--crop", action="append", default=[], metavar="X,Y",
                    help="top-left of a 64x64 crop for --images (repeatable)")
    args = ap.parse_args()

    rows = []
    checks = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, path in PHOTOS:
            if not os.path.exists(path):
                print("skipped %s: %s not installed" % (name, path), file=sys.stderr)
                continue
            rgb = load(path)
            mo = mosaic_rggb(rgb)
            outs = {}
            for mname, fn in methods(args.build):
                out = fn(mo, tmp)
                outs[mname] = out
                whole, inner = scores(rgb, out), scores(rgb, out, BORDER)
                if "(reference)" not in mname:  # checked below to be identical
                    rows.append((name, "%dx%d" % (rgb.shape[1], rgb.shape[0]), mname, whole, inner))
                checks.append((name, mname, sampled_mismatches(rgb, out), best_shift(rgb, out)))
            for other in ("bayer2rgb", "OpenCV bilinear"):
                d = np.abs(outs[other].astype(int) - outs["texelconvert bilinear"])
                checks.append((name, "%s against texelconvert bilinear:" % other,
                               "at most %d codes apart outside the 2-pixel border, %d on it"
                               % (d[BORDER:-BORDER, BORDER:-BORDER].max(), d.max()), None))
            for a, b in (("texelconvert mhc", "texelconvert mhc (reference)"),
                         ("texelconvert bilinear", "texelconvert bilinear (reference)")):
                same = np.array_equal(outs[a], outs[b])
                checks.append((name, "%s and %s:" % (a, b), "identical" if same else "DIFFER", None))
            if args.codes and cv2 is not None:
                print_codes(name, rgb)
            if args.images and name == "grace_hopper":
                where = [tuple(int(v) for v in c.split(",")) for c in args.crop] or [(340, 468), (228, 36)]
                sel = ["texelconvert bilinear", "texelconvert mhc", "OpenCV EA"]
                write_crops(rgb, [(n, outs[n]) for n in sel if n in outs], where, args.images)

    print("\n| photograph | size | method | R | G | B | CPSNR | R interior | G interior | B interior | CPSNR interior |")
    print("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, size, mname, whole, inner in rows:
        print("| %s | %s | %s | %s | %s |" % (name, size, mname, " | ".join(fmt(v) for v in whole),
                                            " | ".join(fmt(v) for v in inner)))
    print("\nChecks (sampled values that came back changed; the shift of the best interior CPSNR):")
    for name, mname, mism, shift in checks:
        if shift is None:
            print("  %s %s %s" % (name, mname, mism))
        else:
            print("  %s %s: %d of the mosaic's samples changed, best shift %s" % (name, mname, mism, shift))


if __name__ == "__main__":
    main()
