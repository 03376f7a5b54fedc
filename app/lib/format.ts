/** The product's display formats live in workers/core/format.ts: staff alerts write them too. */
export * from "@workers/core/format";
