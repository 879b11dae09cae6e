import express, { type RequestHandler } from 'express';

/** A UTF-16 surrogate without its pair: valid JSON text (`"\ud800"`), but no Unicode character, so no column takes it. */
const LONE_SURROGATE = /\p{Cs}/u;

class UnpairedSurrogate extends Error {}

function wellFormed(key: string, value: unknown): unknown {
  if (LONE_SURROGATE.test(key) || (typeof value === 'string' && LONE_SURROGATE.test(value))) {
    throw new UnpairedSurrogate('The body has a string that is not well-formed Unicode (an unpaired surrogate)');
  }
  return value;
}

/**
 * The JSON body parser of every router: at most `limit` bytes, and only well-formed Unicode strings (MariaDB refuses
 * an escaped lone surrogate in a JSON column, and a TEXT column cannot hold one). A failure is body-parser's 400.
 */
export function jsonBody(limit: string): RequestHandler {
  return express.json({ limit, reviver: wellFormed });
}
