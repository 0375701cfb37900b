// The JSON of openapi.json and contract.json: the same value as JSON.stringify's, its outline indented.
import { outlineJson } from '../../generator/bundle/outline-json';

describe('outlineJson', () => {
  const value = { title: 'T', paths: { '/a': { get: { operationId: 'a', tags: ['x'] }, post: { operationId: 'b' } } }, empty: {}, none: [], skipped: undefined };

  it('indents the first levels and writes each value below them on one line', () => {
    expect(outlineJson(value, 3)).toBe(
      '{\n  "title": "T",\n  "paths": {\n    "/a": {\n      "get": {"operationId":"a","tags":["x"]},\n      "post": {"operationId":"b"}\n    }\n  },\n  "empty": {},\n  "none": []\n}\n',
    );
    expect(outlineJson(value, 1)).toBe(`{\n  "title": "T",\n  "paths": ${JSON.stringify(value.paths)},\n  "empty": {},\n  "none": []\n}\n`);
  });

  it('reads back as the value JSON.stringify writes, toJSON and left-out members included', () => {
    const withToJson = { ...value, list: [1, undefined, { toJSON: () => 'replaced' }], when: { toJSON: () => ({ at: 1 }) } };
    for (const depth of [0, 1, 2, 5]) expect(JSON.parse(outlineJson(withToJson, depth))).toEqual(JSON.parse(JSON.stringify(withToJson)));
  });
});
