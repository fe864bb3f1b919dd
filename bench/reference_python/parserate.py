"""Measures the reference Python streaming parser the way bench/cmd/parserate
measures ours: MB/s by process CPU time (time.process_time, user + system),
the median of several rounds, a fresh parser per round, input fed in
fixed-size chunks.

The reference is A2uiStreamParser from the google/A2UI agent SDK
(agent_sdks/python/src/a2ui/parser/streaming.py; a2ui/core/parser in older
layouts), imported from a
checkout given with --src; nothing of it is in this repository. It is built
with the basic catalog of the chosen version, read from the specification
files under $A2UI_SHARED (default: ../shared next to the repository root):

  0.9: a2ui/specification/v0_9/json/server_to_client.json,
       v0_9/json/common_types.json, v0_9/catalogs/basic/catalog.json
  0.8: a2ui/specification/v0_8/json/server_to_client.json,
       v0_8/json/standard_catalog_definition.json (no common types)

FILE is decoded as UTF-8 and cut into chunks of --chunk characters (not
bytes; the corpus is ASCII, so the two agree). The count printed is the
number of A2UI messages in the parts process_chunk returned. If the
reference raises while parsing, the error is counted, a fresh parser takes
over from the next chunk (it resumes at the next <a2ui-json> tag), and the
count of errors is printed after the rate.

With --no-validate the parser's validator is switched off after
construction (it sets the parser's private _validator attribute to None):
the catalog still picks the v0.9 or v0.8 parser and its reference fields,
but no yield is checked against JSON Schema. This isolates the cost of the
validation, which dominates on v0.9.

Needs python3 >= 3.10 with jsonschema (and its dependency referencing).

usage: python3 bench/reference_python/parserate.py --src CHECKOUT/agent_sdks/python/src
           --version 0.9|0.8 [--chunk 16] [--rounds 3] [--no-validate] FILE
"""

import argparse
import json
import os
import sys
import time

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def shared_dir():
    return os.environ.get("A2UI_SHARED") or os.path.join(os.path.dirname(REPO_ROOT), "shared")


def load_json(*parts):
    path = os.path.join(shared_dir(), "a2ui", "specification", *parts)
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def build_catalog(version):
    """Builds the reference's A2uiCatalog for the basic catalog of version."""
    try:  # current layout: a2ui/schema; older: a2ui/core/schema
        from a2ui.schema.catalog import A2uiCatalog
    except ImportError:
        from a2ui.core.schema.catalog import A2uiCatalog

    if version == "0.9":
        return A2uiCatalog(
            version="0.9",
            name="basic",
            s2c_schema=load_json("v0_9", "json", "server_to_client.json"),
            common_types_schema=load_json("v0_9", "json", "common_types.json"),
            catalog_schema=load_json("v0_9", "catalogs", "basic", "catalog.json"),
        )
    catalog = load_json("v0_8", "json", "standard_catalog_definition.json")
    # The v0.8 definition names no catalogId; the v0.8 validator never reads it.
    catalog.setdefault("catalogId", "standard")
    return A2uiCatalog(
        version="0.8",
        name="standard",
        s2c_schema=load_json("v0_8", "json", "server_to_client.json"),
        common_types_schema={},
        catalog_schema=catalog,
    )


def new_parser(parser_class, catalog, validate):
    parser = parser_class(catalog=catalog)
    if not validate:
        parser._validator = None
    return parser


def run_round(parser_class, catalog, chunks, validate):
    """Feeds chunks to a fresh parser; returns (messages, errors, first error)."""
    parser = new_parser(parser_class, catalog, validate)
    messages = 0
    errors = 0
    first_error = None
    for chunk in chunks:
        try:
            parts = parser.process_chunk(chunk)
        except Exception as e:  # the reference raises ValueError and others
            errors += 1
            if first_error is None:
                first_error = f"{type(e).__name__}: {str(e).splitlines()[0][:200]}"
            parser = new_parser(parser_class, catalog, validate)
            continue
        for part in parts:
            if isinstance(part.a2ui_json, list):
                messages += len(part.a2ui_json)
    return messages, errors, first_error


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--src", required=True, help="CHECKOUT/agent_sdks/python/src")
    ap.add_argument("--version", required=True, choices=["0.9", "0.8"])
    ap.add_argument("--chunk", type=int, default=16, help="chunk size in characters")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--no-validate", action="store_true",
                    help="switch off the parser's JSON Schema validation of each yield")
    ap.add_argument("file")
    args = ap.parse_args()
    if args.chunk <= 0 or args.rounds <= 0:
        ap.error("--chunk and --rounds must be positive")

    src = os.path.abspath(args.src)
    if os.path.isfile(os.path.join(src, "a2ui", "parser", "streaming.py")):
        sys.path.insert(0, src)
        from a2ui.parser.streaming import A2uiStreamParser
    elif os.path.isfile(os.path.join(src, "a2ui", "core", "parser", "streaming.py")):
        sys.path.insert(0, src)  # the older layout
        from a2ui.core.parser.streaming import A2uiStreamParser
    else:
        sys.exit(f"parserate.py: neither {src}/a2ui/parser/streaming.py nor {src}/a2ui/core/parser/streaming.py found "
                 "(--src must be CHECKOUT/agent_sdks/python/src)")

    catalog = build_catalog(args.version)
    with open(args.file, encoding="utf-8") as f:
        text = f.read()
    size = len(text.encode("utf-8"))
    chunks = [text[i:i + args.chunk] for i in range(0, len(text), args.chunk)]

    rates = []
    messages = errors = 0
    first_error = None
    for _ in range(args.rounds):
        start = time.process_time()
        messages, errors, first_error = run_round(
            A2uiStreamParser, catalog, chunks, not args.no_validate)
        elapsed = max(time.process_time() - start, 1e-6)
        rates.append(size / 1e6 / elapsed)

    line = (f"{sorted(rates)[len(rates) // 2]:.4g} MB/s (chunk {args.chunk}, reference python, "
            f"{messages} messages, median of {args.rounds}"
            f"{', no validation' if args.no_validate else ''})")
    if errors:
        line += f"; {errors} errors, parser restarted after each; first: {first_error}"
    print(line)


if __name__ == "__main__":
    main()
