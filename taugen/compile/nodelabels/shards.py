"""G1/G2: the node-label objects of a cluster in shards, each its own kustomization root.

A backend puts each object in its group (base.node_file: one per gpu class and network
domain, so one fabric's nodes stay together). Each group is a shard folder under nodes/:

- `nodes/<class>.<domain>/`: a network domain (an InfiniBand fabric) of a class;
- `nodes/<class>/`: a class's hosts in singleton domains (a class name holds no `.`);
- `nodes/_no-gpu-class/`: labelled nodes of no gpu class.

A group of more than `shardSize` objects is split into parts `<folder>.part-<i>-of-<k>`, an
object going to part sha256(name) mod k, for the fewest k (of at most 64 tried from
⌈objects ÷ shardSize⌉) that keep each part at most `shardSize`: adding or removing an object
changes its own part only, unless the group's count passes a multiple of `shardSize` (then the
group is dealt again). When none of those fits (a small `shardSize`, or names chosen to collide),
k is the count that fills parts to 80 % and an object whose part is full takes the next one with
room (issue 32: trying every k until one fit was quadratic, and more, for `shardSize: 1`). Inside a
shard, objects are written in name order to files of at most FILE_BUDGET estimated bytes
(`nodes.yaml`, or `nodes-1.yaml`, `nodes-2.yaml`, ...), so no file passes 1 MiB (G2).
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Sequence
from typing import Any

import orjson

from taugen.compile.manifest import Manifest, file_order
from taugen.compile.nodelabels.base import NO_CLASS_FILE, NODES_DIR, SINGLE_HOSTS, packed
from taugen.core.errors import TaugenError

MAX_FILE_BYTES = 1 << 20  # SPEC G2
# YAML is at most about twice an object's compact JSON (indented lists); decoration (managed-by,
# sync wave) adds under 512 bytes: a file packed to this estimate stays well under 1 MiB.
FILE_BUDGET = 768 * 1024
DECORATION = 512
FILE_STEM = "nodes"


class ShardError(TaugenError):
    """Two groups that would share a shard folder (a network domain named like a split part)."""


def shard_folder(group: str) -> str:
    """The shard folder of a group named by base.node_file."""
    if group == NO_CLASS_FILE:
        return f"{NODES_DIR}/_no-gpu-class"
    stem = group.removeprefix(f"{NODES_DIR}/").removesuffix(".yaml")
    gpu_class, _, domain = stem.partition("/")
    if not domain or domain == SINGLE_HOSTS:
        return f"{NODES_DIR}/{gpu_class}"
    return f"{NODES_DIR}/{gpu_class}.{domain}"


def sharded(manifests: Sequence[Manifest], shard_size: int) -> list[Manifest]:
    """The manifests, each in its shard's folder and file (G1, G2)."""
    groups: dict[str, list[Manifest]] = {}
    for manifest in manifests:
        groups.setdefault(manifest.file, []).append(manifest)
    placed: list[Manifest] = []
    owner: dict[str, str] = {}
    for group in sorted(groups):
        for folder, part in _parts(shard_folder(group), groups[group], shard_size):
            if owner.setdefault(folder, group) != group:
                raise ShardError(
                    f"node-label groups {owner[folder]} and {group} would share the shard folder "
                    f"{folder}: rename one network domain"
                )
            placed += _files(folder, part)
    return placed


MAX_TRIES = 64


def _parts(folder: str, group: list[Manifest], shard_size: int) -> list[tuple[str, list[Manifest]]]:
    if len(group) <= shard_size:
        return [(folder, group)]
    keyed = [(_hash(m), m) for m in group]
    least = -(-len(group) // shard_size)
    roomy = -(-len(group) * 5 // (shard_size * 4))  # parts 80 % full
    parts = next(
        (
            p
            for count in range(least, min(roomy, least + MAX_TRIES - 1) + 1)
            if (p := _dealt(keyed, count, shard_size)) is not None
        ),
        None,
    )
    if parts is None:
        parts = _probed(keyed, roomy, shard_size)
    return [(f"{folder}.part-{i}-of-{len(parts)}", p) for i, p in enumerate(parts, start=1)]


def _hash(manifest: Manifest) -> int:
    key = "/".join(manifest.identity).encode()
    return int.from_bytes(hashlib.sha256(key).digest()[:8], "big")


def _dealt(keyed: list[tuple[int, Manifest]], count: int, size: int) -> list[list[Manifest]] | None:
    """Each object in part hash mod count, or None when a part would hold more than `size`."""
    if max(Counter(h % count for h, _ in keyed).values()) > size:
        return None
    parts: list[list[Manifest]] = [[] for _ in range(count)]
    for h, manifest in keyed:
        parts[h % count].append(manifest)
    return parts


def _probed(keyed: list[tuple[int, Manifest]], count: int, size: int) -> list[list[Manifest]]:
    """Each object in part hash mod count, or the next part with room (in the order of their
    parts, so every part it passed is full: the cursor only moves on, and the whole deal is
    linear however the names collide)."""
    parts: list[list[Manifest]] = [[] for _ in range(count)]
    cursor = 0
    for h, manifest in sorted(keyed, key=lambda k: (k[0] % count, k[0])):
        cursor = max(cursor, h % count)
        while len(parts[cursor % count]) >= size:
            cursor += 1
        parts[cursor % count].append(manifest)
    return parts


def _files(folder: str, part: list[Manifest]) -> list[Manifest]:
    ordered = sorted(part, key=file_order)
    sizes = _sizes(ordered)
    chunks = [ordered] if sizes is None else packed(ordered, sizes, FILE_BUDGET)
    if len(chunks) == 1:
        return [Manifest(f"{folder}/{FILE_STEM}.yaml", m.obj) for m in chunks[0]]
    return [
        Manifest(f"{folder}/{FILE_STEM}-{i}.yaml", m.obj)
        for i, chunk in enumerate(chunks, start=1)
        for m in chunk
    ]


def _sizes(ordered: list[Manifest]) -> list[int] | None:
    """Each object's estimated_bytes, or None when they all fit one file.

    Issue 36: a shard that looks like one file (its first object's estimate times its count) is
    estimated in one encoding of its list, and only one that is not is estimated object by
    object; each is encoded once either way. The guess picks the quicker way, not the answer."""
    if not ordered:
        return None
    looks_one = estimated_bytes(ordered[0].obj) * len(ordered) <= FILE_BUDGET
    if looks_one and _total_estimate(ordered) <= FILE_BUDGET:
        return None
    sizes = [estimated_bytes(m.obj) for m in ordered]
    return None if sum(sizes) <= FILE_BUDGET else sizes


_COMPACT = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False)  # json.dumps makes one per call


def estimated_bytes(obj: dict[str, Any]) -> int:
    """An upper estimate of the object's bytes as canonical YAML, once decorated."""
    return 2 * json_length(obj) + DECORATION


def json_length(value: Any) -> int:
    """The UTF-8 length of the value's compact JSON, as `json.dumps(value, separators=(",", ":"),
    ensure_ascii=False)` writes it, for what node-label objects hold: maps, lists, strings, ints,
    booleans and None.

    Issue 36: orjson writes those the same bytes (it escapes the same characters the same way) in
    a tenth of the time: at 100,000 nodes the estimates took 0.2 s of each half's 1.4 s. What
    orjson refuses (a key that is not a string, an int past 64 bits, a lone surrogate) is measured
    by the json module. A float, which the two spell differently (`1e+16`, `1e16`), is never in
    a node-label object: labels and annotations are strings. tests/property/test_json_length.py
    holds the two equal."""
    try:
        return len(orjson.dumps(value))
    except (orjson.JSONEncodeError, TypeError):
        return _utf8_length(_COMPACT.encode(value))


def _utf8_length(text: str) -> int:
    return len(text) if text.isascii() else len(text.encode())  # isascii reads a flag: no copy


def _total_estimate(manifests: list[Manifest]) -> int:
    """The sum of the manifests' estimated_bytes, from one encoding of their list (issue 36: a
    call per object was most of the sharding). The list's compact JSON is the objects' own joined
    by one `,` each, inside `[` and `]`: n + 1 bytes more than theirs together."""
    if not manifests:
        return 0
    listed = json_length([m.obj for m in manifests])
    return 2 * (listed - len(manifests) - 1) + DECORATION * len(manifests)
