// `node --import` this file to have the process name every package it loads through an ES import
// on standard error, one line each time: `loaded-package NAME` (test/http/lazy-libraries.test.ts).
import { register } from "node:module";

register(new URL("./hook.mjs", import.meta.url));
