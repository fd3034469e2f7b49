import { describe, expect, it } from 'vitest';
import { parseNetboxWebhook } from '../src/devices/netbox.js';
import { ValidationFailed } from '../src/errors.js';

describe('NetBox webhook bodies', () => {
  const data = {
    id: 12,
    name: ' spine-1 ',
    device_role: { slug: 'spine' },
    site: { name: 'Frankfurt', slug: 'fra1' },
    platform: 'junos',
    primary_ip4: { address: '2001:db8::1/64' },
    status: { value: 'planned', label: 'Planned' },
    tags: [{ name: 'b' }, { name: 'a' }, {}],
    custom_fields: { rack: 'C1', units: 2, virtual: false, owner: null, nested: { x: 1 } },
  };

  it('maps a device body onto device fields and labels (older role/ip field names too)', () => {
    expect(parseNetboxWebhook({ event: 'updated', model: 'dcim.device', data })).toEqual({
      action: 'upsert',
      event: 'updated',
      externalId: '12',
      fields: {
        name: 'spine-1',
        role: 'spine',
        site: 'Frankfurt',
        platform: 'junos',
        managementAddress: '2001:db8::1',
        labels: { rack: 'C1', units: '2', virtual: 'false', status: 'planned', tags: 'a,b' },
      },
    });
  });

  it('turns deleted into a delete by external id, and ignores other models', () => {
    expect(parseNetboxWebhook({ event: 'deleted', model: 'device', data: { id: 'x9' } })).toEqual({
      action: 'delete',
      externalId: 'x9',
      name: null,
    });
    expect(parseNetboxWebhook({ event: 'created', model: 'ipam.ipaddress', data: { id: 1 } })).toMatchObject({
      action: 'ignore',
    });
  });

  it('lists every missing or wrong field', () => {
    try {
      parseNetboxWebhook({ event: 'renamed', data: [] });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ValidationFailed);
      expect((err as ValidationFailed).extra.fields?.map((f) => f.loc.join('.'))).toEqual(['event', 'model', 'data']);
    }
    expect(() => parseNetboxWebhook({ event: 'created', model: 'dcim.device', data: { id: 3 } })).toThrow(/data.name/);
    expect(() => parseNetboxWebhook({ event: 'created', model: 'dcim.device', data: { name: 'x' } })).toThrow(
      /data.id/,
    );
  });
});
