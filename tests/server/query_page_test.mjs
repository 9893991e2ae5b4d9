// Drives the query page of a running `gsparql serve` in a real browser
// (Debian's chromium, headless, through playwright-core from web/'s npm
// packages): types a query into the editor, runs it, reads the rows of the
// result table and explains it; then runs a query with a syntax error and
// reads the error the page shows, and what is left of the plan. With TOKEN
// and UPDATE, runs the update without the token, then with it typed into
// the token field, and reads what the page shows each time. Prints one
// JSON object; exit 0 when the page worked.
//   node tests/server/query_page_test.mjs http://127.0.0.1:PORT/ 'QUERY' 'BAD QUERY' ['TOKEN' 'UPDATE']
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, "../../web/package.json"));
const { chromium } = require("playwright-core");

const [url, query, badQuery, token, update] = process.argv.slice(2);
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || "/usr/bin/chromium" });
const outcome = {};
try {
  const page = await browser.newPage();
  await page.goto(url);
  await page.waitForSelector(".yasqe .CodeMirror");

  // Replaces the editor's text as a person would: select all, then type.
  async function typeQuery(text) {
    await page.click(".yasqe .CodeMirror");
    await page.keyboard.press("Control+A");
    await page.keyboard.press("Delete");
    await page.keyboard.insertText(text);
  }
  async function run() {
    await page.click(".yasqe_queryButton");
  }

  await typeQuery(query);
  await run();
  await page.waitForSelector(".yasr .dataTable tbody tr", { timeout: 20000 });
  outcome.rowsShown = await page.locator(".yasr .dataTable tbody tr").count();
  outcome.resultInfo = (await page.locator(".yasr_response_chip, .yasr .dataTables_info").allTextContents()).join(" | ");
  outcome.firstRow = await page.locator(".yasr .dataTable tbody tr").first().innerText();
  await page.click("#explain");
  await page.waitForFunction(() => document.getElementById("plan").textContent.includes("time: parse"), null, { timeout: 20000 });
  outcome.planShown = true;

  await typeQuery(badQuery);
  await run();
  await page.waitForSelector(".yasr .errorResult", { timeout: 20000 });
  outcome.error = (await page.locator(".yasr .errorResult").innerText()).trim();
  outcome.planAfterNextQuery = await page.locator("#plan").textContent();

  // What the result area says once it shows `expected`.
  async function shown(expected) {
    await page.waitForFunction((text) => document.querySelector(".yasr").innerText.includes(text), expected, { timeout: 20000 });
    return true;
  }
  if (update) {
    await typeQuery(update);
    await run();
    outcome.refusedWithoutToken = await shown("Authorization: Bearer TOKEN");
    await page.fill("#token", token);
    await run();
    outcome.committedWithToken = await shown("update committed");
  }
} finally {
  await browser.close();
}
console.log(JSON.stringify(outcome));
