// None of the models present references another, so there are no relations yet.
export {};
