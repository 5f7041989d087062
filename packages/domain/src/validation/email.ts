import { MAX_EMAIL_LENGTH, textOf } from './fields';

// The conventional pattern login and registration use: dotted local part or a quoted one, then a
// dotted domain with a 2+ letter top level, or a bracketed IPv4 address. Its alternatives exclude
// each other, so it runs in linear time on hostile input.
const STANDARD_EMAIL =
  /^(([^<>()[\]\\.,;:\s@"]+(\.[^<>()[\]\\.,;:\s@"]+)*)|("[^"\r\n]+"))@((\[\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}\])|(([a-zA-Z\-0-9]+\.)+[a-zA-Z]{2,}))$/;
// Section 5's simple pattern for profile edits: something@something.something.
const SIMPLE_EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const isStandardEmail = (value: unknown): value is string => {
  const text = textOf(value, MAX_EMAIL_LENGTH);
  return text !== undefined && STANDARD_EMAIL.test(text);
};

export const isSimpleEmail = (value: unknown): value is string => {
  const text = textOf(value, MAX_EMAIL_LENGTH);
  return text !== undefined && SIMPLE_EMAIL.test(text);
};
