// Custom payload templating: every rule of spec "Delivery behaviour" 5 and docs/OUTBOUND.md.
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { renderCustomRequest, renderTemplate } from '../../src/webhooks/templates.ts';

// String.prototype.toWellFormed is in Node 20 but not in our ES2023 lib typings.
const toWellFormed = (s: string): string => (s as string & { toWellFormed(): string }).toWellFormed();

const payload = {
  deliveryId: 'd-1',
  event: 'conversation.escalated',
  timestamp: '2026-01-02T03:04:05.000Z',
  conversation: {
    id: 'c/1?x=y&z',
    botName: 'Help "desk"\nline two',
    state: 'Escalated',
    userData: { plan: 'pro', seats: 3 },
    tags: ['a', 'b'],
    score: 4.5,
    vip: false,
    note: null,
  },
  userEmail: 'zoë@example.com',
  items: [{ name: 'first' }],
};

describe('placeholder syntax and resolution', () => {
  it('resolves dot paths, with or without spaces inside the braces', () => {
    expect(renderTemplate('{{event}}|{{ conversation.state }}|{{  conversation.userData.plan}}', payload, 'body')).toEqual({
      text: 'conversation.escalated|Escalated|pro',
      unresolved: [],
    });
  });

  it('indexes arrays with numeric segments', () => {
    expect(renderTemplate('{{items.0.name}} {{conversation.tags.1}}', payload, 'body').text).toBe('first b');
  });

  it('sends an unresolved placeholder literally, exactly as written, and reports it once', () => {
    const r = renderTemplate('a={{conversation.nope}} b={{ missing }} c={{conversation.nope}}', payload, 'body');
    expect(r.text).toBe('a={{conversation.nope}} b={{ missing }} c={{conversation.nope}}');
    expect(r.unresolved).toEqual(['{{conversation.nope}}', '{{ missing }}']);
  });

  it('leaves text that is not a placeholder alone and does not report it', () => {
    const text = '{{}} {{ }} {{a b}} {{a..b}} {{.a}} {single} {{{ x';
    expect(renderTemplate(text, payload, 'body')).toEqual({ text, unresolved: [] });
  });

  it('does not walk into strings or other scalars', () => {
    const r = renderTemplate('{{event.length}} {{conversation.score.toFixed}} {{conversation.note.x}}', payload, 'body');
    expect(r.unresolved).toEqual(['{{event.length}}', '{{conversation.score.toFixed}}', '{{conversation.note.x}}']);
  });

  it('never follows inherited properties', () => {
    const inherited = Object.create({ secret: 'from prototype' }) as Record<string, unknown>;
    inherited.own = 'mine';
    const r = renderTemplate('{{own}} {{secret}} {{toString}} {{hasOwnProperty}}', inherited, 'body');
    expect(r.text).toBe('mine {{secret}} {{toString}} {{hasOwnProperty}}');
    expect(r.unresolved).toHaveLength(3);
  });

  it('never runs getters on the payload', () => {
    let ran = false;
    const tricky = Object.defineProperty({}, 'x', { enumerable: true, get: () => ((ran = true), 'got') });
    expect(renderTemplate('{{x}}', tricky, 'body').unresolved).toEqual(['{{x}}']);
    expect(ran).toBe(false);
  });

  it.each(['__proto__', 'constructor', 'prototype', 'a.__proto__', 'constructor.prototype', '__proto__.polluted', 'fn.prototype'])(
    'never resolves {{%s}}, even when it is an own property',
    (path) => {
      const hostile = JSON.parse('{"__proto__":{"polluted":"yes"},"constructor":{"prototype":"p"},"prototype":"q","a":{"__proto__":"r"}}');
      hostile.fn = function named() {};
      const r = renderTemplate(`{{${path}}}`, hostile, 'body');
      expect(r.unresolved).toEqual([`{{${path}}}`]);
    },
  );

  it('does not resolve a path through a missing root payload', () => {
    for (const root of [null, undefined, 'text', 42]) {
      expect(renderTemplate('{{a}}', root, 'url').unresolved).toEqual(['{{a}}']);
    }
  });
});

describe('prototype pollution', () => {
  afterEach(() => {
    delete (Object.prototype as Record<string, unknown>).polluted;
  });

  it('leaves ({}).polluted undefined after rendering a hostile payload and template', () => {
    const hostile = JSON.parse('{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}}}');
    const r = renderCustomRequest(
      {
        url: 'https://h.example/{{__proto__.polluted}}',
        headers: JSON.parse('{"__proto__":"{{constructor.prototype.polluted}}","x":"{{__proto__}}"}'),
        body: '{"__proto__":{"polluted":"{{__proto__.polluted}}"},"c":{{constructor}}}',
      },
      hostile,
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(r.headers)).toBe(Object.prototype);
    expect(Object.keys(r.headers)).toEqual(['__proto__', 'x']);
    expect(r.unresolved).toEqual(['{{__proto__.polluted}}', '{{constructor.prototype.polluted}}', '{{__proto__}}', '{{constructor}}']);
  });
});

describe('URL placeholders', () => {
  it('percent-encodes substituted values so they cannot add path segments or query parameters', () => {
    const r = renderTemplate('https://h.example/c/{{conversation.id}}?email={{userEmail}}', payload, 'url');
    expect(r.text).toBe('https://h.example/c/c%2F1%3Fx%3Dy%26z?email=zo%C3%AB%40example.com');
    expect(new URL(r.text).pathname).toBe('/c/c%2F1%3Fx%3Dy%26z');
    expect(new URL(r.text).searchParams.get('email')).toBe('zoë@example.com');
  });

  it('encodes a lone surrogate as U+FFFD instead of throwing', () => {
    expect(renderTemplate('https://h.example/{{x}}', { x: 'a\ud800b' }, 'url').text).toBe('https://h.example/a%EF%BF%BDb');
  });

  it('accepts numbers and booleans', () => {
    expect(renderTemplate('https://h.example/?s={{conversation.score}}&v={{conversation.vip}}', payload, 'url').text).toBe(
      'https://h.example/?s=4.5&v=false',
    );
  });

  it.each(['conversation.userData', 'conversation.tags', 'conversation.note'])('sends {{%s}} literally because it is not a scalar', (path) => {
    const r = renderTemplate(`https://h.example/{{${path}}}`, payload, 'url');
    expect(r).toEqual({ text: `https://h.example/{{${path}}}`, unresolved: [`{{${path}}}`] });
  });

  it('cannot move the request to another host through a value', () => {
    for (const x of ['@evil.com', '//evil.com/', '\\\\evil.com', '../../evil.com']) {
      expect(new URL(renderTemplate('https://h.example.com/{{x}}', { x }, 'url').text).hostname).toBe('h.example.com');
      // Right after the host, the encoded value either stays in the path or breaks the URL.
      const glued = renderTemplate('https://h.example.com{{x}}', { x }, 'url').text;
      expect(URL.canParse(glued) ? new URL(glued).hostname : 'invalid').toMatch(/^(h\.example\.com|invalid)$/);
    }
  });

  it('keeps host, path prefix and query key fixed for any string value (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.oneof(fc.constantFrom('/', '?', '&', '#', '@', '%', '\ud800'), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 })) }), (x) => {
        const url = new URL(renderTemplate('https://h.example.com/c/{{x}}?k={{x}}', { x }, 'url').text);
        return url.hostname === 'h.example.com' && url.pathname.split('/').length === 3 && url.searchParams.get('k') === toWellFormed(x) && [...url.searchParams.keys()].length === 1;
      }),
    );
  });

  it('makes a value with a slash in the host position an invalid URL rather than a new host', () => {
    const text = renderTemplate('https://{{x}}.example.com/', { x: 'evil.com/' }, 'url').text;
    expect(() => new URL(text)).toThrow();
  });
});

describe('header placeholders', () => {
  it('substitutes scalars as text', () => {
    expect(renderTemplate('Bearer {{conversation.userData.plan}}-{{conversation.userData.seats}}', payload, 'header').text).toBe('Bearer pro-3');
  });

  it('strips CR, LF and other control characters from substituted values (no header injection)', () => {
    const r = renderTemplate('v={{x}}', { x: 'a\r\nX-Injected: 1\u0000\u007f\tb' }, 'header');
    expect(r.text).toBe('v=aX-Injected: 1\tb');
    expect(r.text).not.toMatch(/[\r\n]/);
  });

  it.each(['conversation.userData', 'conversation.tags', 'conversation.note'])('sends {{%s}} literally because it is not a scalar', (path) => {
    expect(renderTemplate(`{{${path}}}`, payload, 'header').unresolved).toEqual([`{{${path}}}`]);
  });

  it('never lets any string value put a CR or LF into a header (property)', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (x) => !/[\r\n]/.test(renderTemplate('a {{x}} b', { x }, 'header').text)));
  });

  it('does not percent-encode header values', () => {
    expect(renderTemplate('{{userEmail}}', payload, 'header').text).toBe('zoë@example.com');
  });
});

describe('body placeholders', () => {
  it('JSON-encodes objects, arrays, numbers, booleans and null outside string literals', () => {
    const r = renderTemplate('{"u":{{conversation.userData}},"t":{{conversation.tags}},"s":{{conversation.score}},"v":{{conversation.vip}},"n":{{conversation.note}}}', payload, 'body');
    expect(JSON.parse(r.text)).toEqual({ u: { plan: 'pro', seats: 3 }, t: ['a', 'b'], s: 4.5, v: false, n: null });
  });

  it('inserts a string raw outside a JSON string literal', () => {
    expect(renderTemplate('{"raw": {{x}}}', { x: '[1,2]' }, 'body').text).toBe('{"raw": [1,2]}');
  });

  it('JSON-escapes a string inside a JSON string literal so quotes and newlines keep the body valid', () => {
    const r = renderTemplate('{"id": "{{conversation.id}}", "bot": "Bot: {{conversation.botName}}!"}', payload, 'body');
    expect(JSON.parse(r.text)).toEqual({ id: 'c/1?x=y&z', bot: 'Bot: Help "desk"\nline two!' });
  });

  it('escapes an object placed inside a string literal as its JSON text', () => {
    const r = renderTemplate('{"data": "{{conversation.userData}}"}', payload, 'body');
    expect(JSON.parse(JSON.parse(r.text).data)).toEqual({ plan: 'pro', seats: 3 });
  });

  it('tracks escaped quotes in the template when deciding what is inside a string', () => {
    const r = renderTemplate('{"a": "say \\"{{q}}\\" now", "b": {{q}}}', { q: 'x"y' }, 'body');
    expect(r.text).toBe('{"a": "say \\"x\\"y\\" now", "b": x"y}');
  });

  it('substitutes strings raw in a body that is not JSON', () => {
    expect(renderTemplate('Hello "{{name}}",\nbye', { name: 'O"Brien\n' }, 'body').text).toBe('Hello "O"Brien\n",\nbye');
    expect(renderTemplate('a={{x}}&b={{y}}', { x: 'p q', y: { k: 1 } }, 'body').text).toBe('a=p q&b={"k":1}');
  });

  it('sends a cyclic value literally instead of throwing', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(renderTemplate('{{c}}', { c: cyclic }, 'body').unresolved).toEqual(['{{c}}']);
  });

  it('keeps any JSON body template valid JSON for any string values (property)', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        const r = renderTemplate('{"a": "{{a}}", "b": "pre {{b}} post", "n": {{n}}}', { a, b, n: 1 }, 'body');
        const parsed = JSON.parse(r.text);
        return parsed.a === a && parsed.b === `pre ${b} post` && parsed.n === 1;
      }),
    );
  });
});

describe('renderCustomRequest', () => {
  it('renders URL, header values and body with their own rules and merges unresolved tokens', () => {
    const r = renderCustomRequest(
      {
        url: 'https://h.example/{{conversation.id}}/{{nope}}',
        headers: { 'X-Conv': '{{conversation.id}}', 'X-Obj': '{{conversation.userData}}', 'X-Name': '{{conversation.botName}}' },
        body: '{"id":"{{conversation.id}}","user":{{conversation.userData}},"x":"{{nope}}"}',
      },
      payload,
    );
    expect(r.url).toBe('https://h.example/c%2F1%3Fx%3Dy%26z/{{nope}}');
    expect(r.headers).toEqual({ 'X-Conv': 'c/1?x=y&z', 'X-Obj': '{{conversation.userData}}', 'X-Name': 'Help "desk"line two' });
    expect(JSON.parse(r.body!)).toEqual({ id: 'c/1?x=y&z', user: { plan: 'pro', seats: 3 }, x: '{{nope}}' });
    expect(r.unresolved).toEqual(['{{nope}}', '{{conversation.userData}}']);
  });

  it('keeps a null body null', () => {
    expect(renderCustomRequest({ url: 'https://h.example/', headers: {}, body: null }, payload)).toEqual({
      url: 'https://h.example/',
      headers: {},
      body: null,
      unresolved: [],
    });
  });
});
