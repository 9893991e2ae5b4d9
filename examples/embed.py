#!/usr/bin/env python3
"""Embedding gsparql in Python (examples/embed.cpp's twin): load a file into a
database, run a query, print rows.
    embed.py DB_DIR DATA_FILE 'SELECT ...'
"""
import sys

import gsparql


def main(argv):
    if len(argv) != 4:
        print(f"usage: {argv[0]} DB_DIR DATA_FILE QUERY", file=sys.stderr)
        return 2
    try:
        db = gsparql.Database(argv[1])
        loaded = db.load(argv[2])
        print(f"loaded {loaded.unique_triples} triples")

        rows = db.query(argv[3], terms="ntriples")
        print("".join(f"?{variable}\t" for variable in rows.variables))
        for row in rows:
            print("".join(f"{'(unbound)' if term is None else term}\t" for term in row))
        print(f"{len(rows)} rows")
    except gsparql.QueryError as e:
        print(f"query error at {e.line}:{e.column}: {e}", file=sys.stderr)
        return 1
    except gsparql.Error as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
