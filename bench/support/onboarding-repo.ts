/**
 * A generated repository for the onboarding index bench: BENCH_FILES (5,000) source files and 500 routes in a
 * realistic mix, all in one repository as a monorepo would have them:
 * - `web/`, a Next.js app: 100 `pages/` routes (half dynamic) and 150 `app/` routes under a route group, with layouts;
 * - `spa/`, a React Router SPA: 150 routes as `createBrowserRouter` objects, 15 parents of 9 children, some lazy;
 * - `server/`, an Express app: 100 routes in 10 routers mounted under prefixes, rendering HTML forms in strings;
 * - the rest: components and helpers (2 to 3 KB each, like the median file of a React app) importing each other, with
 *   forms, links and test ids, so a route's files are a real import graph.
 * Deterministic: the same seed gives the same files.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

export const GENERATED_ROUTES = 500;

function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A component of about 2.5 KB: state, a handler, a list, and every fourth one a labelled form. */
function component(name: string, imports: string[], index: number): string {
  const importLines = imports.map((target, i) => `import { ${path.posix.basename(target)} as Part${i} } from '${target}';`).join('\n');
  const parts = imports.map((_, i) => `<Part${i} />`).join('\n        ');
  const form = index % 4 === 0
    ? `<form action="/api/${name.toLowerCase()}" method="post" data-testid="${name}-form">
        <label htmlFor="${name}-email">Email</label>
        <input id="${name}-email" name="email" type="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
        <textarea name="note" placeholder="Note" />
        <button type="submit">Save ${name}</button>
      </form>`
    : '';
  return `import { useMemo, useState } from 'react';
${importLines}

interface ${name}Props {
  title?: string;
  items?: { id: string; label: string; href: string }[];
}

/** ${name}: a generated component. */
export function ${name}({ title = '${name}', items = [] }: ${name}Props) {
  const [email, setEmail] = useState('');
  const [open, setOpen] = useState(false);
  const visible = useMemo(() => items.filter((item) => item.label.toLowerCase().includes(email.toLowerCase())), [items, email]);
  function toggle() {
    setOpen((value) => !value);
  }
  return (
    <section data-testid="${name.toLowerCase()}" className="generated">
      <h2 onClick={toggle}>{title}</h2>
      {open && (
        <ul>
          {visible.map((item) => (
            <li key={item.id}>
              <a href={\`/items/\${item.id}\`}>{item.label}</a>
            </li>
          ))}
        </ul>
      )}
      ${form}
      <a href="/section/${index % 50}">Section ${index % 50}</a>
      <div className="parts">
        ${parts}
      </div>
    </section>
  );
}

export default ${name};
`;
}

function page(name: string, imports: string[], dynamic: boolean): string {
  const importLines = imports.map((target, i) => `import { ${path.posix.basename(target)} as Part${i} } from '${target}';`).join('\n');
  return `${importLines}

export default function ${name}(${dynamic ? '{ params }: { params: { id: string } }' : ''}) {
  return (
    <main data-testid="${name.toLowerCase()}">
      <h1>${name}${dynamic ? ' {params.id}' : ''}</h1>
      ${imports.map((_, i) => `<Part${i} />`).join('\n      ')}
      <a href="/">Home</a>
    </main>
  );
}
`;
}

function router(index: number, count: number): string {
  const routes = Array.from({ length: count }, (_, i) => {
    const verb = i % 3 === 2 ? 'post' : 'get';
    return `router.${verb}('/item${i}${i % 2 ? '/:id' : ''}', (req, res) => {
  res.send(renderPage('Item ${i}', \`<form method="post" action="/r${index}/item${i}">
    <label for="q${i}">Quantity</label><input id="q${i}" name="quantity" type="number" required>
    <button type="submit">Update item ${i}</button></form><a href="/r${index}">Back</a>\`));
});`;
  }).join('\n\n');
  return `import express from 'express';
import { renderPage } from '../views/v${index}.js';

export const router = express.Router();

${routes}
`;
}

/** Writes the repository under `dir`; returns the repository paths of its source files (the ones the bench edits). */
export async function generateRepository(dir: string, files: number, seed = 42): Promise<string[]> {
  const next = random(seed);
  const written: string[] = [];
  const put = async (file: string, text: string, source = true) => {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), text);
    if (source) written.push(file);
  };
  await put('web/package.json', JSON.stringify({ name: 'web', dependencies: { next: '15.0.0', react: '19.0.0' } }), false);
  await put('spa/package.json', JSON.stringify({ name: 'spa', dependencies: { 'react-router-dom': '7.0.0' } }), false);
  await put('server/package.json', JSON.stringify({ name: 'server', type: 'module', dependencies: { express: '5.0.0' } }), false);

  // Routes and their fixed files: 650 source files.
  await put('web/app/layout.tsx', page('RootLayout', [], false));
  await put('web/app/(shop)/layout.tsx', page('ShopLayout', [], false));
  const fixed = 100 + 150 + 75 + 2 + 1 + 150 + 1 + 10 + 10;
  const componentCount = Math.max(10, files - fixed);
  const webComponents = Math.floor(componentCount * 0.45);
  const spaComponents = Math.floor(componentCount * 0.45);
  const serverHelpers = componentCount - webComponents - spaComponents;
  const pick = (prefix: string, count: number, k: number) =>
    Array.from({ length: k }, () => `${prefix}${Math.floor(next() * count)}`);

  for (let i = 0; i < webComponents; i++) {
    const deps = i < 3 ? [] : pick('./C', i, 2).map((d) => d);
    await put(`web/components/C${i}.tsx`, component(`C${i}`, [...new Set(deps)], i));
  }
  for (let i = 0; i < spaComponents; i++) {
    const deps = i < 3 ? [] : pick('./S', i, 2);
    await put(`spa/src/components/S${i}.tsx`, component(`S${i}`, [...new Set(deps)], i));
  }
  for (let i = 0; i < serverHelpers; i++) {
    const dep = i ? `import { helper${Math.floor(next() * i)} } from './h${Math.floor(next() * i)}.js';\n` : '';
    await put(`server/lib/h${i}.js`, `${dep}export function helper${i}(value) {\n  return String(value).trim().slice(0, ${i + 10});\n}\n`);
  }
  for (let k = 0; k < 50; k++) {
    await put(`web/pages/sec${k}/index.tsx`, page(`Section${k}`, pick('../../components/C', webComponents, 3), false));
    await put(`web/pages/sec${k}/[id].tsx`, page(`SectionItem${k}`, pick('../../components/C', webComponents, 3), true));
  }
  for (let k = 0; k < 75; k++) {
    await put(`web/app/(shop)/area${k}/layout.tsx`, page(`AreaLayout${k}`, pick('../../../components/C', webComponents, 1), false));
    await put(`web/app/(shop)/area${k}/page.tsx`, page(`Area${k}`, pick('../../../components/C', webComponents, 3), false));
    await put(`web/app/(shop)/area${k}/[slug]/page.tsx`, page(`AreaItem${k}`, pick('../../../../components/C', webComponents, 3), true));
  }
  const routeObjects: string[] = [];
  const spaImports: string[] = [];
  for (let parent = 0; parent < 15; parent++) {
    const children: string[] = [];
    for (let child = 0; child < 10; child++) {
      const n = parent * 10 + child;
      await put(`spa/src/pages/P${n}.tsx`, page(`P${n}`, pick('../components/S', spaComponents, 3), child % 2 === 1));
      if (child === 0) continue;
      if (n % 5 === 0) children.push(`{ path: 'child${child}', lazy: () => import('./pages/P${n}') }`);
      else {
        spaImports.push(`import P${n} from './pages/P${n}';`);
        children.push(`{ path: 'child${child}${child % 2 ? '/:id' : ''}', element: <P${n} /> }`);
      }
    }
    spaImports.push(`import P${parent * 10} from './pages/P${parent * 10}';`);
    routeObjects.push(`{ path: '/area${parent}', element: <P${parent * 10} />, children: [\n      ${children.join(',\n      ')}\n    ] }`);
  }
  await put('spa/src/router.tsx', `import { createBrowserRouter } from 'react-router-dom';
${spaImports.join('\n')}

export const router = createBrowserRouter([
    ${routeObjects.join(',\n    ')}
]);
`);
  const mounts: string[] = [];
  for (let k = 0; k < 10; k++) {
    await put(`server/views/v${k}.js`, `import { helper${k} } from '../lib/h${k}.js';
export function renderPage(title, body) {
  return \`<!doctype html><title>\${helper${k}(title)}</title><nav><a href="/">Home</a><a href="/r${k}">Section</a></nav><main data-testid="page">\${body}</main>\`;
}
`);
    await put(`server/routes/r${k}.js`, router(k, 10));
    mounts.push(`import { router as r${k} } from './routes/r${k}.js';\napp.use('/r${k}', r${k});`);
  }
  await put('server/app.js', `import express from 'express';\nexport const app = express();\n${mounts.join('\n')}\n`);
  return written;
}
