import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
// The fixture is plain JavaScript, run as the web app that onboarding's end-to-end tests browse.
// @ts-expect-error -- no types for the fixture's JavaScript
import { startExpressShop } from '../../fixtures/repos/express-shop/server.js';

interface Shop {
  url: string;
  orders: { id: string; email: string; items: Record<string, number>; fullName: string }[];
  messages: { name: string; email: string; message: string }[];
  close(): Promise<void>;
}

/** A visitor with a cookie jar, submitting forms as a browser does (urlencoded, redirects followed). */
function visitor(base: string) {
  let cookie = '';
  const remember = (response: Response) => {
    const set = response.headers.get('set-cookie');
    if (set) cookie = set.split(';')[0];
  };
  return {
    async get(path: string) {
      const response = await fetch(base + path, { headers: { cookie } });
      remember(response);
      return { status: response.status, url: response.url, html: await response.text() };
    },
    async post(path: string, form: Record<string, string>) {
      const response = await fetch(base + path, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(form).toString(),
        redirect: 'manual',
      });
      remember(response);
      const location = response.headers.get('location');
      if (location) return this.get(location);
      return { status: response.status, url: response.url, html: await response.text() };
    },
  };
}

describe('the Express shop fixture web app', () => {
  let shop: Shop;
  beforeAll(async () => {
    shop = (await startExpressShop({ port: 0 })) as Shop;
  });
  afterAll(async () => {
    await shop.close();
  });

  it('says so when the credentials are wrong, and signs in with the right ones', async () => {
    const person = visitor(shop.url);
    const wrong = await person.post('/signin', { email: 'shopper@example.com', password: 'nope' });
    expect(wrong.status).toBe(401);
    expect(wrong.html).toContain('Wrong email or password.');
    const right = await person.post('/signin', { email: 'shopper@example.com', password: 'correct-horse', next: '/' });
    expect(right.html).toContain('Signed in as shopper@example.com');
  });

  it('adds to the cart, removes from it, and places an order only after signing in', async () => {
    const person = visitor(shop.url);
    await person.get('/');
    const detail = await person.get('/products/p2');
    expect(detail.html).toContain('<button type="submit">Add to cart</button>');
    let cart = await person.post('/cart/items', { productId: 'p2', quantity: '2' });
    await person.post('/cart/items', { productId: 'p1', quantity: '1' });
    cart = await person.get('/cart');
    expect(cart.html).toContain('Green teapot × 2');
    cart = await person.post('/cart/items/p1/remove', {});
    expect(cart.html).not.toContain('Blue mug');

    const signedOut = await person.get('/checkout');
    expect(signedOut.url).toContain('/signin?next=%2Fcheckout');
    await person.post('/signin', { email: 'shopper@example.com', password: 'correct-horse', next: '/checkout' });
    const before = shop.orders.length;
    const placed = await person.post('/checkout', { fullName: 'Ada Shopper', address: '1 Loop Lane', card: '4242 4242 4242 4242' });
    expect(placed.html).toContain('Thank you Ada Shopper');
    expect(shop.orders.length).toBe(before + 1);
    expect(shop.orders.at(-1)).toMatchObject({ email: 'shopper@example.com', items: { p2: 2 } });
  });

  it('sends the contact form, and escapes what was typed', async () => {
    const person = visitor(shop.url);
    const sent = await person.post('/contact', { name: '<b>Eve</b>', email: 'eve@example.com', message: 'Hello' });
    expect(sent.html).toContain('Thanks &lt;b&gt;Eve&lt;/b&gt;');
    expect(shop.messages.at(-1)).toEqual({ name: '<b>Eve</b>', email: 'eve@example.com', message: 'Hello' });
    const empty = await person.post('/contact', { name: '', email: 'x', message: '' });
    expect(empty.status).toBe(400);
  });
});
