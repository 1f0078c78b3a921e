// Plain unit test of how the gateway renders a Page whose rows are one of several kinds (the
// file summary's "Page (folders and items)"): each kind follows its own selection, named
// `<kind>.<field>` in the page's selectedFields.
import { create } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { file_signage_media_v1_file, GetFileSummaryResponseSchema } from "@signage/contracts/signage/media/v1/file_pb";
import { buildRouteTable } from "../src/routes/route-table.js";
import { renderResponse } from "../src/transcode/response-renderer.js";

const summaryRoute = buildRouteTable([file_signage_media_v1_file]).find((r) => r.method.name === "GetFileSummary")!;

function summary(selectedFields: string[]) {
  return create(GetFileSummaryResponseSchema, {
    content: [
      { item: { case: "folder", value: { id: "f1", name: "Root" } } },
      { item: { case: "file", value: { id: "a1", name: "a.png", tags: [] } } },
    ],
    page: { number: 0, size: 20, totalElements: 2n, totalPages: 1, numberOfElements: 2, first: true, last: true, selectedFields },
  }) as unknown as Record<string, unknown>;
}

describe("file summary rows (one of folder or file)", () => {
  it("renders each kind by its own selection: unselected lists left out, a selected null_when_unset field null", () => {
    const body = renderResponse(summaryRoute, summary(["folder.id", "folder.name", "folder.parentId", "file.id", "file.name", "file.tags"])) as { content: Record<string, Record<string, unknown>>[] };
    const [folder, file] = body.content;
    // "parentId null only for the root folder": selected, unset, so null.
    expect(folder.folder).toEqual({ id: "f1", name: "Root", parentId: null });
    // tags selected: [] means "no tags"; teamAssignments not selected: absent, not [].
    expect(file.file).toEqual({ id: "a1", name: "a.png", tags: [] });
  });

  it("a page naming no fields renders every field of each kind (lists as [], null_when_unset as null)", () => {
    const body = renderResponse(summaryRoute, summary([])) as { content: Record<string, Record<string, unknown>>[] };
    const [folder, file] = body.content;
    expect(folder.folder).toMatchObject({ id: "f1", parentId: null, teamAssignments: [] });
    expect(file.file).toMatchObject({ id: "a1", tags: [], teamAssignments: [] });
  });

  it("the Page keeps its paging fields and drops selectedFields", () => {
    const body = renderResponse(summaryRoute, summary(["file.id"])) as Record<string, unknown>;
    expect(body).toMatchObject({ number: 0, size: 20, totalElements: 2, totalPages: 1, first: true, last: true });
    expect(body).not.toHaveProperty("selectedFields");
  });
});
