#!/usr/bin/env python3
"""A real RDF graph from Debian's package index, for the optimizer's benchmarks.

    debian_packages_rdf.py [PACKAGES_FILE...] > debian.nt

Reads apt's Packages indexes (by default every *_Packages* file under
/var/lib/apt/lists, decompressed with apt-helper) and writes N-Triples: every
binary package with its relations to other packages (Depends, Pre-Depends,
Recommends, Suggests, Enhances, Breaks, Conflicts, Replaces, Provides; each
alternative of "a | b" an edge, version constraints dropped), its source
package, maintainer, section, priority, architecture, debtags, homepage,
version, installed size and short description. The graph is what maintainers
wrote, not generated: degrees follow a power law (libc6 is depended on by
tens of thousands of packages), stars are irregular and the relations form
paths and cycles, unlike WatDiv's and LUBM's generators.

The index changes with every Debian point release: record the Packages
files' dates (apt's InRelease) with any result.
"""
import glob
import re
import subprocess
import sys
from urllib.parse import quote

DEB = "http://gsparql.org/debian#"
PACKAGE = "https://packages.debian.org/bookworm/"
SOURCE = "https://tracker.debian.org/pkg/"
XSD_INTEGER = "http://www.w3.org/2001/XMLSchema#integer"
RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"

RELATIONS = {
    "Depends": "depends", "Pre-Depends": "preDepends", "Recommends": "recommends", "Suggests": "suggests",
    "Enhances": "enhances", "Breaks": "breaks", "Conflicts": "conflicts", "Replaces": "replaces",
    "Provides": "provides",
}
# A name as Debian policy allows it (lower case, digits, + - .); anything else
# in a relation field (architecture qualifiers, profiles) is cut off first.
PACKAGE_NAME = re.compile(r"^[a-z0-9][a-z0-9+.\-]*$")
MAINTAINER = re.compile(r"^(.*?)\s*<([^<>\s]+)>\s*$")
SAFE_IRI = re.compile(r"^https?://[^\s<>\"{}|\\^`]+$")


def iri(text):
    return f"<{text}>"


def literal(text, datatype=None):
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\r", "\\r")
    return f'"{escaped}"' + (f"^^<{datatype}>" if datatype else "")


def package_iri(name):
    return iri(PACKAGE + quote(name, safe="+-."))


def read_stanzas(text):
    for block in text.split("\n\n"):
        fields, key = {}, None
        for line in block.split("\n"):
            if line.startswith((" ", "\t")) and key:
                fields[key] += " " + line.strip()
            elif ":" in line:
                key, value = line.split(":", 1)
                fields[key] = value.strip()
        if "Package" in fields:
            yield fields


def related_names(value):
    for alternatives in value.split(","):
        for choice in alternatives.split("|"):
            name = choice.strip().split(" ")[0].split("(")[0].split(":")[0].split("[")[0].strip()
            if PACKAGE_NAME.match(name):
                yield name


class Writer:
    def __init__(self, out):
        self.out, self.seen = out, set()

    def triple(self, s, p, o):
        self.out.write(f"{s} {iri(DEB + p) if not p.startswith('<') else p} {o} .\n")

    def once(self, key, triples):
        """Writes the triples describing a shared node (a maintainer, a tag) the first time it is met."""
        if key not in self.seen:
            self.seen.add(key)
            for s, p, o in triples:
                self.triple(s, p, o)

    def package(self, f):
        me = package_iri(f["Package"])
        self.triple(me, iri(RDF_TYPE), iri(DEB + "BinaryPackage"))
        if "Version" in f:
            self.triple(me, "version", literal(f["Version"]))
        if f.get("Installed-Size", "").isdigit():
            self.triple(me, "installedSize", literal(f["Installed-Size"], XSD_INTEGER))
        if "Description" in f:
            self.triple(me, "description", literal(f["Description"].split("  ")[0]))
        source = f.get("Source", f["Package"]).split(" ")[0]
        self.triple(me, "source", iri(SOURCE + quote(source, safe="+-.")))
        self.once(("source", source), [(iri(SOURCE + quote(source, safe="+-.")), iri(RDF_TYPE),
                                        iri(DEB + "SourcePackage"))])
        for field, name in (("Section", "section"), ("Priority", "priority"), ("Architecture", "architecture"),
                            ("Multi-Arch", "multiArch")):
            if field in f:
                self.triple(me, name, iri(f"{DEB}{name}/{quote(f[field], safe='')}"))
        self.maintainer(me, f.get("Maintainer", ""))
        for tag in (t.strip() for t in f.get("Tag", "").split(",")):
            if "::" in tag:
                node = iri(DEB + "tag/" + quote(tag, safe=":"))
                self.triple(me, "tag", node)
                self.once(("tag", tag), [(node, "facet", iri(DEB + "facet/" + quote(tag.split("::")[0], safe="")))])
        if SAFE_IRI.match(f.get("Homepage", "")):
            self.triple(me, "homepage", iri(f["Homepage"]))
        for field, name in RELATIONS.items():
            for other in sorted(set(related_names(f.get(field, "")))):
                self.triple(me, name, package_iri(other))

    def maintainer(self, me, text):
        match = MAINTAINER.match(text)
        if not match:
            return
        node = iri("mailto:" + quote(match.group(2), safe="@+-._"))
        self.triple(me, "maintainer", node)
        self.once(("maintainer", match.group(2)), [(node, "name", literal(match.group(1)))])


def main():
    files = sys.argv[1:] or sorted(glob.glob("/var/lib/apt/lists/*_Packages*"))
    if not files:
        sys.exit("no Packages index: run apt-get update, or name the files")
    writer = Writer(sys.stdout)
    for path in files:
        try:  # apt-helper decompresses whatever apt stored (.lz4, .xz, plain)
            text = subprocess.run(["/usr/lib/apt/apt-helper", "cat-file", path], check=True, capture_output=True,
                                  text=True, errors="replace").stdout
        except (OSError, subprocess.CalledProcessError) as e:
            sys.exit(f"{path}: cannot read it through apt-helper: {getattr(e, 'stderr', '') or e}")
        for fields in read_stanzas(text):
            writer.package(fields)


if __name__ == "__main__":
    main()
