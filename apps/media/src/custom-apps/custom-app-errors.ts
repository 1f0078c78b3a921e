// The private-app error keys (document 1 "Errors"). Status by code:
// InvalidArgument 400, NotFound 404, AlreadyExists/FailedPrecondition 409;
// the two shared keys below already map to 413 and 415 in the gateway table.
import { Code } from "@connectrpc/connect";
import { serviceError } from "@signage/auth";
import type { PackageError } from "./package/package-error.js";

export const CustomAppErrorKey = {
  nameRequired: "customApp.error.nameRequired",
  invalidText: "customApp.error.invalidText",
  invalidValue: "customApp.error.invalidValue",
  notFound: "customApp.error.notFound",
  immutableField: "customApp.error.immutableField",
  notPackaged: "customApp.error.notPackaged",
  invalidPackage: "customApp.error.invalidPackage",
  identityTaken: "customApp.error.identityTaken",
  noPackage: "customApp.error.noPackage",
  fileMissing: "customApp.error.fileMissing",
  invalidFilePath: "customApp.error.invalidFilePath",
  payloadTooLarge: "upload.error.payloadTooLarge",
  unsupportedMediaType: "media.error.unsupportedMediaType",
} as const;

export const appNotFound = (id: bigint | number) => serviceError(Code.NotFound, CustomAppErrorKey.notFound, `Private app ${id} not found`, { id: Number(id) });

export const nameRequired = () => serviceError(Code.InvalidArgument, CustomAppErrorKey.nameRequired, "A private app needs a non-empty name");

/** "Private app name blank or invalid -> HTTP 400": a NUL character cannot be stored. */
export const invalidText = (field: string) =>
  serviceError(Code.InvalidArgument, CustomAppErrorKey.invalidText, `The private app's ${field} must not contain the NUL character (U+0000)`, { field });

export const immutableField = (field: string) =>
  serviceError(Code.InvalidArgument, CustomAppErrorKey.immutableField, `Updates cannot change '${field}' of a private app`, { field });

export const notPackaged = (id: number) =>
  serviceError(Code.FailedPrecondition, CustomAppErrorKey.notPackaged, `Private app ${id} has no package yet; upload one before enabling it`, { id });

export const invalidPackage = (e: PackageError) =>
  serviceError(Code.InvalidArgument, CustomAppErrorKey.invalidPackage, e.message, { ...e.details, reason: e.problem });

export const identityTaken = (appId: string) =>
  serviceError(Code.AlreadyExists, CustomAppErrorKey.identityTaken, `Package identity '${appId}' is already used in this customer's catalog`, { appId });

export const noPackage = (id: number) => serviceError(Code.NotFound, CustomAppErrorKey.noPackage, `Private app ${id} has no package yet`, { id });

export const fileMissing = () => serviceError(Code.InvalidArgument, CustomAppErrorKey.fileMissing, "The upload needs the multipart field 'file' with the package ZIP");

export const uploadTooLarge = (maxBytes: number) =>
  serviceError(Code.InvalidArgument, CustomAppErrorKey.payloadTooLarge, `The package exceeds ${maxBytes} bytes`, { maxBytes });

export const notZipMediaType = (contentType: string) =>
  serviceError(Code.InvalidArgument, CustomAppErrorKey.unsupportedMediaType, `The package must be application/zip or application/x-zip-compressed, got '${contentType}'`, { contentType });

/** "Private app name blank or invalid -> HTTP 400": a field whose value the contract does not allow. */
export const invalidValue = (field: string, problem: string) =>
  serviceError(Code.InvalidArgument, CustomAppErrorKey.invalidValue, `The private app's ${field} is invalid: ${problem}`, { field });

/** A served file's path that no package entry can have ("..", "." or empty segments, backslashes, control characters). */
export const invalidFilePath = (problem: string) =>
  serviceError(Code.InvalidArgument, CustomAppErrorKey.invalidFilePath, `Not a path inside the package: ${problem}`, { reason: problem });
