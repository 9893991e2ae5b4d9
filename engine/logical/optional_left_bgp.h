#pragma once
// A BGP joined with an OPTIONAL moved into the OPTIONAL's left side, where
// that gives the same solutions: `{ ?c geo:asWKT ?w OPTIONAL { ?c :name ?n }
// ?c a :City }` is Join(LeftJoin(BGP1, O), BGP2) in the algebra (section
// 18.2.2), and becomes LeftJoin(BGP1 + BGP2, O). The planner then orders all
// the triples in one BGP, and what it reads through a BGP its rows extend
// (a spatial filter's candidates, the nearest literals, text searches)
// limits them all, where before the BGP after the OPTIONAL ran whole and
// was joined with the OPTIONAL's rows.
//
// (A OPT O) JOIN B = (A JOIN B) OPT O, for bags too, where A is a BGP (its
// solutions bind all its variables) and every variable that O, or the
// OPTIONAL's condition, shares with B is one of A's: a solution of O is then
// compatible with a of A and b of B together exactly when it is with a, and
// the condition reads the same values. Through a chain of OPTIONALs over A,
// each must meet it.
#include "parser/algebra.h"

namespace gsparql::engine {

// `op` with each such BGP moved into the OPTIONAL's left side; shared where
// nothing changes.
sparql::OpPtr moveBgpsIntoOptionalLeft(const sparql::OpPtr& op);

}  // namespace gsparql::engine
