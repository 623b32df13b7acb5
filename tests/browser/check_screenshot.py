#!/usr/bin/env python3
"""Checks a replay screenshot (PNG) against the page's probe (JSON from the
page's DOM): the canvas is not blank, the robot's material colours are on
screen, and each coloured geometry's colour shows within 8 pixels of the
pixel its recorded pose projects to (unless the page reports another body in front
of it). Standard library only (zlib, struct).

usage: check_screenshot.py shot.png probe.json [other.png]
With other.png, also fails when the two screenshots are identical."""
import json
import struct
import sys
import zlib


def read_png(path):
    """Width, height and rows of (r, g, b) tuples of an 8-bit RGB/RGBA PNG."""
    data = open(path, 'rb').read()
    if data[:8] != b'\x89PNG\r\n\x1a\n':
        raise SystemExit(f'{path}: not a PNG')
    pos, chunks, header = 8, [], None
    while pos < len(data):
        length, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b'IHDR':
            header = struct.unpack('>IIBBBBB', body)
        elif kind == b'IDAT':
            chunks.append(body)
        pos += 12 + length
    width, height, depth, colour = header[:4]
    if depth != 8 or colour not in (2, 6):
        raise SystemExit(f'{path}: unsupported PNG (depth {depth}, colour type {colour})')
    channels = 3 if colour == 2 else 4
    raw = zlib.decompress(b''.join(chunks))
    stride = width * channels
    rows, prev, i = [], bytearray(stride), 0
    for _ in range(height):
        kind, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - channels] if x >= channels else 0
            b, c = prev[x], prev[x - channels] if x >= channels else 0
            if kind == 1:
                line[x] = (line[x] + a) & 255
            elif kind == 2:
                line[x] = (line[x] + b) & 255
            elif kind == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[x] = (line[x] + pred) & 255
        rows.append([tuple(line[x:x + 3]) for x in range(0, stride, channels)])
        prev = line
    return width, height, rows


def hue_match(pixel, rgba):
    """A shaded pixel of a material of colour rgba: the same dominant channel
    order, with a clear margin (lighting scales the channels, not their order)."""
    want = [c * 255 for c in rgba[:3]]
    if max(want) - min(want) < 0.3 * 255:
        return None  # greys cannot be told from the background by hue
    top = want.index(max(want))
    return pixel[top] == max(pixel) and pixel[top] - min(pixel) > 0.25 * (max(want) - min(want))


def main():
    shot, probe_path = sys.argv[1], sys.argv[2]
    width, height, rows = read_png(shot)
    probe = json.load(open(probe_path))
    colours = {}
    for row in rows[::2]:
        for p in row[::2]:
            colours[p] = colours.get(p, 0) + 1
    if len(colours) < 20:
        raise SystemExit(f'{shot}: the canvas looks blank ({len(colours)} colours)')
    failures, checked = [], 0
    for g in probe['geometries']:
        if hue_match((0, 0, 0), g['rgba']) is None:
            continue
        count = sum(n for p, n in colours.items() if hue_match(p, g['rgba']))
        if count < 10:
            failures.append(f"colour {g['rgba']} of '{g['name']}' is not on screen")
            continue
        if not g.get('visible', True):
            continue  # another body hides its origin (the page ray-casts to it)
        checked += 1
        x, y = int(round(g['x'])), int(round(g['y']))
        near = [rows[j][i] for j in range(max(y - 8, 0), min(y + 9, height))
                for i in range(max(x - 8, 0), min(x + 9, width))]
        if not any(hue_match(p, g['rgba']) for p in near):
            centre = near[len(near) // 2] if near else 'nothing'
            failures.append(f"'{g['name']}' projects to pixel ({x}, {y}) but its colour "
                            f"{g['rgba']} is not there (found {centre})")
    coloured = [g for g in probe['geometries'] if hue_match((0, 0, 0), g['rgba']) is not None]
    if coloured and not checked:
        failures.append('no coloured geometry is visible at its projected origin')
    if len(sys.argv) > 3:
        other = read_png(sys.argv[3])[2]
        if other == rows:
            failures.append(f'{shot} and {sys.argv[3]} are identical: the scene did not move')
    if failures:
        raise SystemExit('\n'.join(f'{shot}: {f}' for f in failures))
    print(f'{shot}: ok ({len(colours)} colours, {checked} coloured geometries found at '
          f'their projected origins)')


if __name__ == '__main__':
    main()
