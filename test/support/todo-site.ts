/**
 * A small todo app on 127.0.0.1 for the steps people's tests use: rows with nameless checkboxes, a label to
 * double-click and edit, Delete buttons shown only while a row is hovered, tabs with aria-selected, filter links
 * marked by a "selected" class, radios, a file input that reports (and decodes) what it got, a card to drag onto a
 * drop zone, a long page with a footer, and a second page to go back and forward between. State lives in the page
 * (a reload starts it afresh) except `loads`, the server's count of `/` requests.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TodoSite {
  url: string;
  /** How many times `/` was served. */
  loads(): number;
  close(): Promise<void>;
}

const TODO_PAGE = (loads: number) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Todos</title>
<style>
  li .delete { visibility: hidden; }
  li:hover .delete { visibility: visible; }
  #zone { min-height: 60px; border: 1px dashed #888; }
  #spacer { height: 2500px; }
</style></head>
<body>
<h1>Todos</h1>
<p id="loads">Load ${loads}</p>
<label for="new">New item</label> <input id="new" placeholder="What needs to be done?">
<div role="tablist" aria-label="When">
  <button role="tab" aria-selected="true" id="tab-today">Today</button>
  <button role="tab" aria-selected="false" id="tab-later">Later</button>
</div>
<nav aria-label="Filters"><a href="#/" class="filter selected">All</a> <a href="#/active" class="filter">Active</a> <a href="#/completed" class="filter">Completed</a></nav>
<ul aria-label="Tasks" id="tasks">
  <li><input type="checkbox"><span class="title">Buy milk</span> <button class="delete">Delete</button></li>
  <li><input type="checkbox"><span class="title">Pay rent</span> <button class="delete">Delete</button></li>
  <li><input type="checkbox"><span class="title">Call Ada</span> <button class="delete">Delete</button></li>
</ul>
<fieldset><legend>Size</legend>
  <label><input type="radio" name="size" value="s"> Small</label>
  <label><input type="radio" name="size" value="l" checked> Large</label>
</fieldset>
<label for="file">Attachment</label> <input type="file" id="file">
<p id="attached">Nothing attached</p>
<div id="card" draggable="true">Card A</div>
<section id="zone" role="region" aria-label="Done"><h2>Done</h2></section>
<p id="dropped">Nothing dropped</p>
<button id="wipe">Delete everything</button>
<a href="/about">About</a>
<div id="spacer"></div>
<footer><button id="top">Back to top</button></footer>
<script>
  const tasks = document.getElementById('tasks');
  tasks.addEventListener('click', (event) => {
    if (event.target.classList.contains('delete')) event.target.closest('li').remove();
  });
  tasks.addEventListener('dblclick', (event) => {
    const title = event.target.closest('.title');
    if (!title) return;
    const field = document.createElement('input');
    field.setAttribute('aria-label', 'Edit task');
    field.value = title.textContent;
    title.replaceWith(field);
    field.focus();
    field.addEventListener('keydown', (key) => {
      if (key.key !== 'Enter') return;
      const span = document.createElement('span');
      span.className = 'title';
      span.textContent = field.value;
      field.replaceWith(span);
    });
  });
  const filter = () => {
    const hash = location.hash || '#/';
    for (const link of document.querySelectorAll('a.filter')) link.classList.toggle('selected', link.getAttribute('href') === hash);
    for (const item of tasks.children) {
      const done = item.querySelector('input[type=checkbox]').checked;
      item.hidden = (hash === '#/active' && done) || (hash === '#/completed' && !done);
    }
  };
  window.addEventListener('hashchange', filter);
  filter();
  for (const tab of document.querySelectorAll('[role=tab]')) {
    tab.addEventListener('click', () => {
      for (const other of document.querySelectorAll('[role=tab]')) other.setAttribute('aria-selected', String(other === tab));
    });
  }
  document.getElementById('file').addEventListener('change', async (event) => {
    const file = event.target.files[0];
    let decoded = '';
    if (file.type.startsWith('image/')) {
      decoded = await createImageBitmap(file).then((image) => ', decoded ' + image.width + 'x' + image.height, () => ', not decodable');
    }
    const head = new Uint8Array(await file.slice(0, 4).arrayBuffer());
    document.getElementById('attached').textContent =
      'Attached ' + file.name + ' (' + file.type + ', ' + file.size + ' bytes, starts ' + [...head].map((b) => b.toString(16).padStart(2, '0')).join('') + decoded + ')';
  });
  document.getElementById('card').addEventListener('dragstart', (event) => event.dataTransfer.setData('text/plain', 'Card A'));
  const zone = document.getElementById('zone');
  zone.addEventListener('dragover', (event) => event.preventDefault());
  zone.addEventListener('drop', (event) => {
    event.preventDefault();
    zone.appendChild(document.getElementById('card'));
    document.getElementById('dropped').textContent = 'Dropped ' + event.dataTransfer.getData('text/plain');
  });
</script>
</body></html>`;

const ABOUT_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>About</title></head>
<body><h1>About the todos</h1><a href="/">Home</a></body></html>`;

export async function startTodoSite(): Promise<TodoSite> {
  let loads = 0;
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://site.invalid').pathname;
    const html = (body: string) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(body);
    if (path === '/') {
      loads += 1;
      html(TODO_PAGE(loads));
    } else if (path === '/about') html(ABOUT_PAGE);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    loads: () => loads,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
