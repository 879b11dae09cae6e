import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { indexRevision } from '../../../src/onboarding/index/index-revision.js';
import type { IndexedRoute, RepositoryIndex } from '../../../src/onboarding/model.js';
import { revisionFilesOf } from '../../support/revision-files.js';

const REPOS = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/repos');

async function indexFixture(name: string): Promise<RepositoryIndex> {
  const dir = path.join(REPOS, name);
  return indexRevision({ dir, commitSha: 'c0ffee', files: await revisionFilesOf(dir) });
}

/** Indexes the fixture once for the `describe` it is called in; the index is read through the returned function. */
function fixtureIndex(name: string): () => RepositoryIndex {
  let index: RepositoryIndex | undefined;
  beforeAll(async () => {
    index = await indexFixture(name);
  });
  return () => index!;
}

const summary = (routes: IndexedRoute[]) => routes.map((r) => `${r.framework} ${r.methods.join(',')} ${r.path}`);

function route(index: RepositoryIndex, framework: string, routePath: string): IndexedRoute {
  const found = index.routes.find((r) => r.framework === framework && r.path === routePath);
  if (!found) throw new Error(`no ${framework} route ${routePath} in ${summary(index.routes).join('; ')}`);
  return found;
}

describe('indexing a Next.js app with both routers', () => {
  const index = fixtureIndex('next-shop');

  it('finds the pages and app routes, dynamic segments and catch-alls, without route groups, slots or private folders', () => {
    expect(summary(index().routes)).toEqual([
      'next-app GET /',
      'next-pages GET /',
      'next-pages POST /api/newsletter',
      'next-app GET,POST /api/orders',
      'next-pages GET /blog/:slug',
      'next-app GET /cart',
      'next-pages GET /docs/*',
      'next-app GET /products/:id',
    ]);
    expect(route(index(), 'next-pages', '/docs/*').dynamic).toBe(true);
    expect(route(index(), 'next-app', '/cart').dynamic).toBe(false);
  });

  it('puts the page, its layouts and the components it imports behind an app route', () => {
    expect(route(index(), 'next-app', '/products/:id').files).toEqual([
      'app/(shop)/products/[id]/page.tsx',
      'app/layout.tsx',
      'app/(shop)/layout.tsx',
      'components/AddToCart.tsx',
      'lib/catalog.ts',
      'components/SiteNav.tsx',
      'components/Button.tsx',
    ]);
    expect(route(index(), 'next-pages', '/blog/:slug').files).toEqual(['pages/blog/[slug].tsx', 'pages/_app.tsx', 'components/SiteNav.tsx']);
    expect(route(index(), 'next-app', '/api/orders').files).toEqual(['app/api/orders/route.ts']);
  });

  it('reads the cart form with its labelled fields, and the links and test ids of each route', () => {
    const cart = route(index(), 'next-app', '/cart');
    expect(cart.forms).toEqual([{
      file: 'app/(shop)/cart/page.tsx',
      action: '/api/orders',
      method: 'POST',
      fields: [
        { name: 'coupon', label: 'Coupon code', type: 'text', required: false },
        { name: 'email', label: 'Email for the receipt', type: 'email', required: true },
        { name: 'shipping', label: 'Shipping speed', type: 'select', required: false },
      ],
      submitLabel: 'Place order',
    }]);
    expect(cart.testIds.sort()).toEqual(['cart', 'shop-layout', 'site-nav']);
    const product = route(index(), 'next-app', '/products/:id');
    expect(product.forms.map((f) => [f.file, f.action, f.submitLabel])).toEqual([['components/AddToCart.tsx', '/api/cart/:param', 'Add to cart']]);
    expect(product.links.sort()).toEqual(['/', '/cart', '/products/:param/reviews']);
    expect(route(index(), 'next-pages', '/').links.sort()).toEqual(['/', '/blog/hello-world', '/cart', '/products/42']);
    expect(route(index(), 'next-pages', '/blog/:slug').links).toContain('/blog');
  });

  it('counts languages and bytes', () => {
    expect(index().languages.typescript.files).toBe(16);
    expect(index().languages.html).toEqual({ files: 1, bytes: expect.any(Number) });
    expect(index().stats).toEqual({ filesRead: 20, filesReused: 0, ms: expect.any(Number) });
  });
});

describe('indexing a React Router SPA', () => {
  const index = fixtureIndex('react-router-spa');

  it('joins nested route objects and <Route> trees into full paths', () => {
    expect(index().routes.map((r) => r.path)).toEqual([
      '/', '/*', '/admin', '/admin/*', '/admin/audit', '/admin/users/:userId', '/login', '/projects', '/projects/:projectId', '/settings',
    ]);
    expect(new Set(index().routes.map((r) => r.framework))).toEqual(new Set(['react-router']));
  });

  it('puts the router, the parent layout and the element component behind a route, lazy modules included', () => {
    expect(route(index(), 'react-router', '/projects/:projectId').files).toEqual([
      'src/main.tsx', 'src/components/Layout.tsx', 'src/pages/ProjectDetail.tsx',
    ]);
    expect(route(index(), 'react-router', '/settings').files).toEqual(['src/main.tsx', 'src/pages/Settings.tsx', 'src/components/Layout.tsx']);
    expect(route(index(), 'react-router', '/admin/audit').files).toEqual(['src/pages/AdminRoutes.jsx', 'src/pages/AuditLog.jsx']);
  });

  it('reads the sign-in form of a route with an action, and navigation by links and calls', () => {
    const login = route(index(), 'react-router', '/login');
    expect(login.forms).toEqual([{
      file: 'src/pages/Login.tsx',
      action: null,
      method: 'POST',
      fields: [
        { name: 'email', label: 'Email', type: 'email', required: true },
        { name: 'password', label: 'Password', type: 'password', required: true },
        { name: 'remember', label: 'Remember me', type: 'checkbox', required: false },
      ],
      submitLabel: 'Sign in',
    }]);
    expect(login.links).toEqual(['/']);
    expect(route(index(), 'react-router', '/projects').links.sort()).toEqual(['/', '/projects', '/projects/:param', '/settings']);
    expect(route(index(), 'react-router', '/projects/:projectId').testIds.sort()).toEqual(['main-nav', 'project-detail']);
    expect(route(index(), 'react-router', '/*').testIds).toEqual(['not-found']);
  });
});

describe('indexing an Express shop with a Koa router', () => {
  const index = fixtureIndex('express-shop');

  it('finds routes under their mount prefixes, chained .route() methods, and Koa prefixes and named routes', () => {
    expect(summary(index().routes)).toEqual([
      'express GET /',
      'koa DELETE /api/admin/orders/:id',
      'koa POST /api/orders',
      'koa GET /api/products',
      'koa GET /api/products/:id',
      'express GET /cart',
      'express POST /cart/items',
      'express POST /cart/items/:id/remove',
      'express GET,POST /checkout',
      'express GET,POST /contact',
      'express GET /orders/:orderId',
      'express GET /products',
      'express GET /products/:id',
      'express GET,POST /signin',
      'express POST /signout',
    ]);
  });

  it('gives each route the forms its own handler renders, read from the HTML in its strings', () => {
    const signin = route(index(), 'express', '/signin');
    expect(signin.forms.find((f) => f.action === '/signin')).toEqual({
      file: 'routes/pages.js',
      action: '/signin',
      method: 'POST',
      fields: [
        { name: 'email', label: 'Email', type: 'email', required: true },
        { name: 'password', label: 'Password', type: 'password', required: true },
      ],
      submitLabel: 'Sign in',
    });
    expect(signin.forms.some((f) => f.action === '/contact')).toBe(false);
    const checkout = route(index(), 'express', '/checkout');
    expect(checkout.forms.find((f) => f.action === '/checkout')?.fields.map((f) => [f.name, f.label, f.type])).toEqual([
      ['fullName', 'Full name', 'text'], ['address', 'Shipping address', 'textarea'], ['card', 'Card number', 'text'],
    ]);
    expect(route(index(), 'express', '/cart').forms.map((f) => f.submitLabel).sort()).toEqual(['Remove', 'Sign out']);
    expect(route(index(), 'express', '/products/:id').testIds.sort()).toEqual(['main-nav', 'product-price', 'add-to-cart-form', 'signed-in-as'].sort());
  });

  it('puts the declaring router, the helpers its handler uses and their imports behind a route', () => {
    expect(route(index(), 'express', '/products').files).toEqual(['routes/products.js', 'catalog.js', 'views/html.js', 'views/layout.js']);
    expect(route(index(), 'express', '/products').links.sort()).toEqual(['/', '/cart', '/contact', '/products', '/products/:param', '/signin']);
    expect(route(index(), 'koa', '/api/products/:id').files).toEqual(['koa/api.js', 'catalog.js']);
  });
});
