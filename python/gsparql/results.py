"""The rows of a SELECT query."""
from collections.abc import Sequence


class QuerySolution(tuple):
    """A row: a tuple of terms (None where a variable is unbound), in the
    order of QuerySolutions.variables, that a variable's name also indexes:
    row[0], row["name"] (or "?name"), row.get("name")."""

    __slots__ = ()
    variables = ()
    _index = {}  # variable name -> position, set by each result's own subclass

    def __getitem__(self, key):
        if isinstance(key, str):
            return tuple.__getitem__(self, self._index[key.lstrip("?$")])
        return tuple.__getitem__(self, key)

    def get(self, name, default=None):
        value = self[name] if name.lstrip("?$") in self._index else None
        return default if value is None else value

    def asdict(self):
        """{variable: term} for the bound variables."""
        return {name: value for name, value in zip(self.variables, self) if value is not None}

    def __repr__(self):
        cells = " ".join(f"?{name}={value!r}" for name, value in zip(self.variables, self))
        return f"<QuerySolution {cells}>"


class QuerySolutions(Sequence):
    """The rows of a SELECT, in order: QuerySolution objects, their terms
    converted as they are read. .variables names the columns (without '?')."""

    def __init__(self, variables, rows, convert):
        self.variables = tuple(variables)
        self._rows = rows
        self._convert = convert
        index = {name: i for i, name in enumerate(self.variables)}
        self._row_type = type("QuerySolution", (QuerySolution,),
                              {"__slots__": (), "variables": self.variables, "_index": index})

    def _row(self, cells):
        return self._row_type(map(self._convert, cells))

    def __len__(self):
        return len(self._rows)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self._row(cells) for cells in self._rows[i]]
        return self._row(self._rows[i])

    def __iter__(self):
        return map(self._row, self._rows)

    def __repr__(self):
        return f"<QuerySolutions {len(self)} rows of {' '.join('?' + v for v in self.variables)}>"
