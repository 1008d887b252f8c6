// The API's reference: /openapi.json read and shown as a list of operations, their bodies, answers and
// error statuses, and the schemas they name. Nothing is fetched but /openapi.json from this server.
"use strict";

function element(tag, text, attributes = {}) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  return node;
}

function refName(schema) {
  return schema && schema.$ref ? schema.$ref.split("/").pop() : null;
}

function schemaLink(schema) {
  const name = refName(schema);
  if (name) return element("a", name, { href: `#schema-${name}` });
  if (schema && schema.anyOf) {
    const span = element("span");
    schema.anyOf.forEach((part, i) => {
      if (i) span.append(" or ");
      span.append(schemaLink(part));
    });
    return span;
  }
  return element("code", JSON.stringify(schema));
}

function operation(path, method, op) {
  const section = element("section", undefined, { class: "operation", id: op.operationId });
  section.append(element("h3", `${method.toUpperCase()} ${path}`));
  section.append(element("p", op.summary));
  const list = element("ul");
  if (op.parameters) {
    for (const p of op.parameters) list.append(element("li", `${p.in} parameter ${p.name}`));
  }
  if (op.requestBody) {
    const li = element("li", "body: ");
    li.append(schemaLink(op.requestBody.content["application/json"].schema));
    list.append(li);
  }
  for (const [status, answer] of Object.entries(op.responses)) {
    const li = element("li", `${status}: ${answer.description}`);
    const json = answer.content && answer.content["application/json"];
    if (json && Number(status) < 400) {
      li.append(" — ");
      li.append(schemaLink(json.schema));
    }
    list.append(li);
  }
  section.append(list);
  return section;
}

function show(spec) {
  const main = document.getElementById("reference");
  main.append(element("h2", spec.info.title));
  main.append(element("p", spec.info.description));
  for (const [path, methods] of Object.entries(spec.paths)) {
    for (const [method, op] of Object.entries(methods)) main.append(operation(path, method, op));
  }
  main.append(element("h2", "Schemas"));
  for (const [name, schema] of Object.entries(spec.components.schemas)) {
    main.append(element("h3", name, { id: `schema-${name}` }));
    main.append(element("pre", JSON.stringify(schema, null, 2)));
  }
}

fetch("/openapi.json")
  .then((response) => response.json())
  .then(show)
  .catch((error) => document.getElementById("reference").append(element("p", `/openapi.json: ${error}`)));
