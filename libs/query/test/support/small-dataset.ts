import type { Dataset, ItemRow } from "./fixture-data.js";

export const BASE_MS = 1_700_000_000_000;
const BASE_US = BASE_MS * 1000;
export const UUID_1 = "00000000-0000-4000-8000-000000000001";
const UUID_2 = "00000000-0000-4000-8000-000000000002";

const blank: Omit<ItemRow, "id"> = {
  customerId: 1, name: null, comment: null, weight: null, score: null, ratio: null, price: null, enabled: null,
  createdDateUs: null, lastSeenMs: null, status: null, tags: null, info: undefined, uid: null, bigRef: null,
  secret: null, contentId: null, folderId: null, folderPath: null,
};

/**
 * Five items whose expected matches are worked out by hand in the tests.
 * Folders: f1 (root) > f2 > f3, and f4 (root). Teams t1, t2, t3 (t3 has no name).
 */
export const SMALL_DATASET: Dataset = {
  teams: [
    { id: "t1", name: "Ops" },
    { id: "t2", name: "Sales" },
    { id: "t3", name: null },
  ],
  folders: [
    { id: "f1", customerId: 1, parentId: null, path: ["f1"], name: null },
    { id: "f2", customerId: 1, parentId: "f1", path: ["f1", "f2"], name: "Lobby" },
    { id: "f3", customerId: 1, parentId: "f2", path: ["f1", "f2", "f3"], name: "Desk" },
    { id: "f4", customerId: 1, parentId: null, path: ["f4"], name: null },
  ],
  contents: [
    { id: "c1", name: "Menu", kind: "SLIDE", updatedAtUs: BASE_US },
    { id: "c2", name: "menu board", kind: "COMPLEX", updatedAtUs: null },
  ],
  items: [
    {
      ...blank, id: "i1", name: "Lobby screen", weight: 5, score: 10, ratio: 0.5, price: "9.99", enabled: true,
      createdDateUs: BASE_US + 1500, lastSeenMs: BASE_MS + 5, status: "ONLINE", tags: ["red", "blue"],
      info: { a: "x", nested: { c: "deep" } }, uid: UUID_1, bigRef: "1", secret: "s1", contentId: "c1", folderId: "f3", folderPath: ["f1", "f2", "f3"],
    },
    {
      ...blank, id: "i2", name: "lobby Café", comment: "", weight: -1, enabled: false, createdDateUs: BASE_US + 999,
      status: "OFFLINE", tags: [], info: null, bigRef: "2", contentId: "c2", folderId: "f2", folderPath: ["f1", "f2"],
    },
    { ...blank, id: "i3", name: "50% off_sale", comment: "hello", score: 2 ** 40, ratio: 1.5, price: "0.10", lastSeenMs: BASE_MS, uid: UUID_2 },
    {
      ...blank, id: "i4", name: "a,b|c:d", comment: "Hello", weight: 0, score: -5, ratio: -0.25, price: "100", enabled: true,
      createdDateUs: BASE_US + 2_000_000, lastSeenMs: BASE_MS + 10, status: "UNKNOWN", tags: ["x,y", "Red"], info: {},
      bigRef: "9007199254740993", contentId: "c1", folderId: "f1", folderPath: ["f1"],
    },
    {
      ...blank, id: "i5", weight: 7, score: 0, ratio: 0, price: "-1.5", enabled: false, createdDateUs: BASE_US - 1,
      lastSeenMs: BASE_MS + 5, status: "ONLINE", tags: ["blue"], info: [], folderId: "f4", folderPath: ["f4"],
    },
  ],
  assignments: [
    { resourceId: "i1", teamId: "t1", readOnly: false },
    { resourceId: "i1", teamId: "t2", readOnly: true },
    { resourceId: "i2", teamId: "t2", readOnly: false },
    { resourceId: "i4", teamId: "t3", readOnly: true },
  ],
};
