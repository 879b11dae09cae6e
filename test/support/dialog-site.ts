/**
 * A small page on 127.0.0.1 whose buttons open the browser's own dialogs, each writing what it was answered into
 * the "Result" line: an alert (Save), a confirm (Delete all), a prompt (Rename), an alert that opens late (Check
 * later), two alerts from one click (Twice), and a dashed box whose context menu (a right click) alerts. `?bug=1`
 * changes the alert's message and inverts the confirm's answer, as a regression would.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface DialogSite {
  url: string;
  close(): Promise<void>;
}

const PAGE = (bug: boolean) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Dialogs</title></head>
<body>
<h1>Dialogs</h1>
<button onclick="save()">Save</button>
<button onclick="deleteAll()">Delete all</button>
<button onclick="rename()">Rename</button>
<button onclick="setTimeout(function () { alert('Checked at last'); show('Checked'); }, 400)">Check later</button>
<button onclick="alert('First of two'); alert('Second of two'); show('Both shown')">Twice</button>
<div id="menu-area" style="border: 3px dashed #555; width: 200px; height: 80px" oncontextmenu="alert('Menu opened'); show('Right-clicked'); return false"></div>
<h2>Result</h2>
<p id="result"></p>
<script>
  function show(text) { document.getElementById('result').textContent = text; }
  function save() { alert(${JSON.stringify(bug ? 'Saved?' : 'Saved!')}); show('Saved'); }
  function deleteAll() { var yes = confirm('Delete all items?'); show(${bug ? '!yes' : 'yes'} ? 'Deleted' : 'Kept'); }
  function rename() { var name = prompt('New name?', 'Untitled'); show(name === null ? 'Rename cancelled' : 'Renamed to ' + name); }
</script>
</body></html>`;

export async function startDialogSite(): Promise<DialogSite> {
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname !== '/') {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE(url.searchParams.get('bug') === '1'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
