import { describe, expect, it } from '@jest/globals';
import { hasVisited, isPagePhrase, onSignInPage, pagePath } from '../../../src/planner/pages.js';

describe('pagePath', () => {
  it.each<[string, string | undefined]>([
    ['/pricing', '/pricing'],
    ['/pricing.', '/pricing'],
    ['"/orders/ORD-1001"', '/orders/ORD-1001'],
    ['https://shop.example.test/a?b=c', 'https://shop.example.test/a?b=c'],
    ['the pricing page', '/pricing'],
    ['the Pricing page', '/pricing'],
    ['pricing', '/pricing'],
    ['the new pricing page', '/pricing'],
    ['the account settings page', '/account-settings'],
    ['the Delete account screen', '/delete-account'],
    ["the user's profile page", '/user-profile'],
    ['the home page', '/'],
    ['the homepage', '/'],
    ['the landing page', '/'],
    ['the cart', '/cart'],
    ['the shopping basket', '/cart'],
    ['checkout', '/checkout'],
    ['the check-out page', '/checkout'],
    ['the login page', '/login'],
    ['the sign in page', '/login'],
    ['the Sign up page', '/signup'],
    ['the registration page', '/signup'],
    ['it', undefined],
    ['the page', undefined],
    ['', undefined],
  ])('%j → %j', (phrase, path) => {
    expect(pagePath(phrase)).toBe(path);
  });

  it('tells a page from other phrases', () => {
    expect(['the pricing page', '/pricing', 'https://x.test', 'the cart', 'checkout', 'the homepage'].every(isPagePhrase)).toBe(true);
    expect(['Order history', 'the total', 'Apply'].some(isPagePhrase)).toBe(false);
  });

  it('knows where the plan has been', () => {
    expect(hasVisited(['/pricing', 'https://shop.test/cart'], '/cart')).toBe(true);
    expect(hasVisited(['/pricing'], '/cart')).toBe(false);
    expect(onSignInPage(['/pricing', '/login'])).toBe(true);
    expect(onSignInPage(['/users/sign-in?next=/cart'])).toBe(true);
    expect(onSignInPage(['/login', '/pricing'])).toBe(false);
    expect(onSignInPage([])).toBe(false);
  });
});
