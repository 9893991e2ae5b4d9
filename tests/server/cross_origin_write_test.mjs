// A page of another origin, in a real browser (Debian's chromium, headless,
// through playwright-core from web/'s npm packages), tries to change the
// database of a running `gsparql serve --update` at URL: a form POST
// (which needs no CORS preflight) of `update=UPDATE`, and a fetch() of the
// update as application/sparql-update. Prints one JSON object: the form's
// response status and text, and what the fetch got.
//   node tests/server/cross_origin_write_test.mjs http://127.0.0.1:PORT/ 'UPDATE'
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, "../../web/package.json"));
const { chromium } = require("playwright-core");

const [url, update] = process.argv.slice(2);
const endpoint = new URL("sparql", url).href;
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || "/usr/bin/chromium" });
const outcome = {};
try {
  const page = await browser.newPage();
  // A page of no origin of the server's: about:blank's content, as an attacker's page would be.
  await page.setContent(`<form id="f" method="POST" action="${endpoint}">
    <input type="hidden" name="update"></form>`);
  await page.$eval("#f input", (input, text) => { input.value = text; }, update);
  const [response] = await Promise.all([page.waitForNavigation(), page.$eval("#f", (form) => form.submit())]);
  outcome.formStatus = response.status();
  outcome.formText = (await response.text()).trim();

  // A fresh page: the first one now shows the server's answer, of its origin.
  const other = await browser.newPage();
  await other.setContent("<p>fetch</p>");
  outcome.fetch = await other.evaluate(async ([target, text]) => {
    try {
      const answer = await fetch(target, { method: "POST", headers: { "Content-Type": "application/sparql-update" }, body: text });
      return `status ${answer.status}`;
    } catch (error) {
      return `failed: ${error}`;
    }
  }, [endpoint, update]);
} finally {
  await browser.close();
}
console.log(JSON.stringify(outcome));
