"""Decode an 8-bit RGB or RGBA PNG with the standard library (zlib), to check a screenshot."""

from __future__ import annotations

import statistics
import struct
import zlib

_CHANNELS = {2: 3, 6: 4}  # colour type -> bytes per pixel


def rows(png: bytes) -> tuple[int, list[bytes]]:
    """Bytes per pixel, and the unfiltered scanlines."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    width = height = channels = 0
    compressed = b""
    at = 8
    while at < len(png):
        (length,) = struct.unpack(">I", png[at : at + 4])
        kind, body = png[at + 4 : at + 8], png[at + 8 : at + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and colour in _CHANNELS, (depth, colour)
            channels = _CHANNELS[colour]
        elif kind == b"IDAT":
            compressed += body
        at += 12 + length
    raw = zlib.decompress(compressed)
    stride = width * channels
    out: list[bytes] = []
    previous = bytes(stride)
    for y in range(height):
        line = raw[y * (stride + 1) : (y + 1) * (stride + 1)]
        current = _unfilter(line[0], bytearray(line[1:]), previous, channels)
        out.append(current)
        previous = current
    return channels, out


def _unfilter(kind: int, line: bytearray, up: bytes, bpp: int) -> bytes:
    for i in range(len(line)):
        left = line[i - bpp] if i >= bpp else 0
        corner = up[i - bpp] if i >= bpp else 0
        if kind == 1:
            line[i] = (line[i] + left) & 0xFF
        elif kind == 2:
            line[i] = (line[i] + up[i]) & 0xFF
        elif kind == 3:
            line[i] = (line[i] + (left + up[i]) // 2) & 0xFF
        elif kind == 4:
            line[i] = (line[i] + _paeth(left, up[i], corner)) & 0xFF
    return bytes(line)


def _paeth(a: int, b: int, c: int) -> int:
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else (b if pb <= pc else c)


def colour_spread(png: bytes, step: int = 7) -> tuple[int, float]:
    """How many distinct colours a sample of pixels has, and the spread of their brightness."""
    channels, lines = rows(png)
    colours = set()
    brightness = []
    for line in lines[::step]:
        for x in range(0, len(line), channels * step):
            pixel = line[x : x + 3]
            colours.add(pixel)
            brightness.append(sum(pixel) / 3)
    return len(colours), statistics.pstdev(brightness)
