import { describe, expect, it } from '@jest/globals';
import { hintQuery, hintScore, hintWords, namesElementNoun } from '../../../src/core/element-hints.js';

describe('element hints', () => {
  it('splits class names, ids and data-test values into words', () => {
    expect(hintWords('shopping_cart_badge')).toEqual(['shopping', 'cart', 'badge']);
    expect(hintWords('HeaderBag__count')).toEqual(['header', 'bag', 'count']);
    expect(hintWords('nav-cart-items')).toEqual(['nav', 'cart', 'item']);
  });

  it('knows the nouns of elements named by what they are, not by a text', () => {
    expect(namesElementNoun('cart badge')).toBe(true);
    expect(namesElementNoun('the notification counter')).toBe(true);
    expect(namesElementNoun('Add to cart')).toBe(false);
    expect(namesElementNoun('Products')).toBe(false);
  });

  it('needs every word of the phrase, and a noun like badge said by the hints', () => {
    const cartBadge = hintQuery('the cart badge');
    expect(cartBadge).toEqual({ noun: 'badge', words: ['cart'] });
    expect(hintScore(cartBadge, ['shopping_cart_badge'])).toBe(2);
    expect(hintScore(cartBadge, ['wishlist-badge'])).toBe(0);
    expect(hintScore(cartBadge, ['shopping_cart_link'])).toBe(0);
    expect(hintScore(hintQuery('badge'), ['badge', 'badge--small'])).toBe(1);
  });

  it('takes a counter said as a count in a class ("todo-count", "basket__count"), and never a count of something else', () => {
    expect(hintScore(hintQuery('the counter'), ['todo-count'])).toBe(1);
    expect(hintScore(hintQuery('the basket counter'), ['basket__count'])).toBe(2);
    expect(hintScore(hintQuery('the basket counter'), ['wishlist-count'])).toBe(0);
    expect(hintScore(hintQuery('the counter'), ['todo-list'])).toBe(0);
  });

  it('takes an icon or a logo by the words before it, since classes seldom say "icon"', () => {
    const icon = hintQuery('shopping cart icon');
    expect(hintScore(icon, ['shopping_cart_link'])).toBe(2);
    expect(hintScore(icon, ['cart-link'])).toBe(0);
    expect(hintScore(hintQuery('logo'), ['app_logo'])).toBe(1);
    expect(hintScore(hintQuery('logo'), ['header'])).toBe(0);
  });
});
