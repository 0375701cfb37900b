// The longest list cursor (CONTRACT §10), in the input and output schemas alike: 64 KiB holds the sort values of
// any sensible order; a page whose last row's values do not fit answers a VALIDATION_ERROR (crud/cursor-codec.ts).
export const MAX_CURSOR_LENGTH = 65_536;
