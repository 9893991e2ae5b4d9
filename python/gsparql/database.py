"""gsparql.Database: a database directory to load, query and update."""
import os
from pathlib import Path

from . import _gsparql, conversion, ntriples
from .results import QuerySolutions


class Database:
    """A gsparql database directory (docs/python.md).

    Database(path) opens the database at `path`; a directory without one gets
    an empty one, unless create=False (then StorageError). backend: where
    queries run by default, "auto" (the GPU where one is present, each BGP
    placed by the cost model), "cpu" or "gpu". terms: how query results give
    terms ("auto", "rdflib", "python", "ntriples"; gsparql/conversion.py).
    gpu_memory, gpu_cache (bytes; 0: the defaults), gpu_executors and
    gpu_preload are the C++ DatabaseOptions. gpus: the GPUs queries use, None
    for every one, N for the first N, or a list of CUDA ordinals (--gpus).
    gpu_peer_memory: with several GPUs, the bytes each keeps of adjacency too
    large for one GPU (None: a quarter of its memory; 0: none, --gpu-peer-memory).

    Each call sees the data as of its start: a load or update, by this
    object or any other, is seen by the queries after it. The object may be
    shared by threads; every call releases the GIL while gsparql works.
    """

    def __init__(self, path, *, backend="auto", create=True, terms="auto", gpu_memory=0, gpu_cache=0,
                 gpu_executors=1, gpu_preload=False, gpus=None, gpu_peer_memory=None):
        conversion.check_terms(terms)
        self._terms = terms
        self._backend = backend
        self._handle = _gsparql.Database(os.fspath(path), create=create, backend=backend, gpu_memory=gpu_memory,
                                         gpu_cache=gpu_cache, gpu_executors=gpu_executors, gpu_preload=gpu_preload,
                                         gpus=_gpu_ordinals(gpus), gpu_peer_memory=_byte_count(gpu_peer_memory))

    @property
    def path(self) -> Path:
        return Path(self._handle.path)

    def load(self, files, *, graph=None, lenient=False, format=None, jsonld_contexts=None):
        """Adds the triples of `files` (a path or a list of them; "-": standard
        input), all or nothing, and returns a LoadSummary. graph: the named
        graph (an IRI) for the triples of formats without graphs; None: the
        default graph. lenient: skip bad statements instead of stopping.
        format: "nt", "ttl", "nq", "trig", "rdfxml" or "jsonld"; None: by each
        file's extension (.gz, .bz2, .xz and .zst are read compressed).
        jsonld_contexts: {URL: path} of JSON-LD remote contexts read from local
        files (a URL ending in "/": a folder); no other one is ever fetched."""
        if isinstance(files, (str, os.PathLike)):
            files = [files]
        graph_term = None if graph is None else ntriples.iri(str(graph))
        contexts = {str(url): os.fspath(path) for url, path in (jsonld_contexts or {}).items()}
        return self._handle.load([os.fspath(f) for f in files], graph=graph_term, lenient=lenient, format=format,
                                 jsonld_contexts=contexts)

    def query(self, sparql, *, terms=None, bindings=None, **options):
        """Runs a SPARQL query. SELECT gives QuerySolutions (rows, and
        .variables), ASK a bool, CONSTRUCT and DESCRIBE a list of (s, p, o).

        terms: as the constructor's, for this query. bindings: {variable:
        value} (an rdflib term or a Python value), given to the query as a
        VALUES clause. options: backend, timeout (seconds), cancel (a
        gsparql.Cancel), default_graphs and named_graphs (IRIs, in place of
        the query's FROM and FROM NAMED), union_default_graph, base_iri,
        max_rows, memory_budget (bytes).
        """
        convert = conversion.converter(terms or self._terms)
        form, *payload = self._handle.query(conversion.with_bindings(sparql, bindings), **options)
        if form == "boolean":
            return payload[0]
        if form == "graph":
            return [tuple(map(convert, triple)) for triple in payload[0]]
        variables, rows = payload
        return QuerySolutions(variables, rows, convert)

    def update(self, sparql, **options):
        """Runs a SPARQL 1.1 Update request, all or nothing, and returns an
        UpdateSummary. options: timeout, cancel, default_graphs and
        named_graphs (as USING and USING NAMED), union_default_graph, base_iri,
        memory_budget. Its patterns run on the CPU."""
        return self._handle.update(sparql, **options)

    def close(self):
        """Lets go of the snapshot this object reads; a later call opens the current one."""
        self._handle.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.close()

    def __repr__(self):
        return f"<gsparql.Database {str(self.path)!r} backend={self._backend!r}>"


_MOST_GPUS = 64  # as `gsparql query --gpus`


def _whole_number(value, name):
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be a whole number, not {value!r}")
    return value


def _gpu_ordinals(gpus):
    """Database's gpus as the C++ DatabaseOptions::gpus: [] for every GPU."""
    if gpus is None:
        return []
    if not isinstance(gpus, (list, tuple)):
        count = _whole_number(gpus, "gpus")
        if not 1 <= count <= _MOST_GPUS:
            raise ValueError(f"gpus={count}: the first N GPUs, N from 1 to {_MOST_GPUS}")
        return list(range(count))
    ordinals = sorted(_whole_number(g, "a GPU of gpus") for g in gpus)
    if not ordinals or ordinals[0] < 0 or ordinals[-1] >= _MOST_GPUS:
        raise ValueError(f"gpus={list(gpus)!r}: CUDA ordinals from 0 to {_MOST_GPUS - 1}, at least one")
    if len(set(ordinals)) != len(ordinals):
        raise ValueError(f"gpus={list(gpus)!r}: a GPU is named twice")
    return ordinals


def _byte_count(size):
    if size is None:
        return None
    if _whole_number(size, "gpu_peer_memory") < 0:
        raise ValueError(f"gpu_peer_memory={size}: bytes, 0 or more")
    return size
